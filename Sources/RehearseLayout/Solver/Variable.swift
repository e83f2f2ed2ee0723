/// An unknown of a constraint system; the solver writes its value.
public final class Variable: Hashable, CustomStringConvertible {
    /// A name for messages (`title.top`).
    public let name: String
    /// The solved value, after ``ConstraintSolver/updateVariables()``.
    public internal(set) var value = 0.0

    public init(_ name: String) {
        self.name = name
    }

    public static func == (lhs: Variable, rhs: Variable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { name }
}

/// A linear expression: a sum of variables times coefficients, plus a constant.
public struct Expression: CustomStringConvertible {
    public var terms: [(variable: Variable, coefficient: Double)]
    public var constant: Double

    public init(_ terms: [(variable: Variable, coefficient: Double)] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: Variable) {
        self.init([(variable, 1)])
    }

    public static func + (lhs: Expression, rhs: Expression) -> Expression {
        Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
    }

    public static func + (lhs: Expression, rhs: Double) -> Expression {
        Expression(lhs.terms, constant: lhs.constant + rhs)
    }

    public static func - (lhs: Expression, rhs: Expression) -> Expression { lhs + rhs * -1 }

    public static func * (lhs: Expression, rhs: Double) -> Expression {
        Expression(lhs.terms.map { ($0.variable, $0.coefficient * rhs) }, constant: lhs.constant * rhs)
    }

    public var description: String {
        let parts = terms.map { "\($0.coefficient) * \($0.variable.name)" } + [String(constant)]
        return parts.joined(separator: " + ")
    }
}

/// How strongly a constraint is held. Required constraints must hold; the others are satisfied as
/// far as possible, stronger before weaker, as Cassowary's (and Kiwi's) symbolic weights.
public struct Strength: Hashable, Comparable, Sendable {
    public let value: Double

    /// Kiwi's `createStrength`: each level 0 to 1000, weighted 10⁶, 10³ and 1.
    public init(strong: Double, medium: Double, weak: Double, weight: Double = 1) {
        func clip(_ value: Double) -> Double { min(max(value * weight, 0), 1000) }
        value = clip(strong) * 1_000_000 + clip(medium) * 1000 + clip(weak)
    }

    public static let required = Strength(strong: 1000, medium: 1000, weak: 1000)
    public static let strong = Strength(strong: 1, medium: 0, weak: 0)
    public static let medium = Strength(strong: 0, medium: 1, weak: 0)
    public static let weak = Strength(strong: 0, medium: 0, weak: 1)
    /// What keeps an under-constrained view where it was: a thousandth of priority 1, so that any
    /// priority (and any sum of fewer than a thousand stays) moves it, as in Auto Layout.
    public static let stay = Strength(strong: 0, medium: 0, weak: 0.001)

    /// An Auto Layout priority (1 to 1000) mapped onto the four levels, order kept: 1000 is
    /// required, 500 to 999 strong (× p / 500), 250 to 499 medium (× p / 250), 1 to 249 weak (× p).
    /// So defaultHigh (750, compression resistance) is strong and defaultLow (250, hugging) medium.
    public static func priority(_ priority: Double) -> Strength {
        switch priority {
        case 1000...: .required
        case 500..<1000: Strength(strong: priority / 500, medium: 0, weak: 0)
        case 250..<500: Strength(strong: 0, medium: priority / 250, weak: 0)
        default: Strength(strong: 0, medium: 0, weak: max(priority, 1))
        }
    }

    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.value < rhs.value }
}

/// `lhs relation 0`: a linear equation or inequality with a strength.
public final class Constraint: Hashable, CustomStringConvertible {
    public enum Relation: String, Sendable {
        case lessThanOrEqual = "<="
        case equal = "=="
        case greaterThanOrEqual = ">="
    }

    public let expression: Expression
    public let relation: Relation
    public let strength: Strength
    /// Where the constraint came from, for messages (`V:|-top-[title]`).
    public let origin: String

    /// `lhs relation rhs` with `strength`.
    public init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required, origin: String = "") {
        expression = lhs - rhs
        self.relation = relation
        self.strength = strength
        self.origin = origin
    }

    public static func == (lhs: Constraint, rhs: Constraint) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { origin.isEmpty ? "\(expression) \(relation.rawValue) 0" : origin }
}
