/// A named condition that must hold after every delivered event (display-link ticks included):
/// a comparison (`check`) or paths that must read finite numbers (`finite`), optionally only
/// while a guard (`when`) holds. Scenario files declare them under `invariants:`; plugins through
/// ``PluginContext/invariant(_:)``.
///
/// A path that names a node the scene does not have at that moment (a gateway's child that is
/// off screen) makes the invariant not apply then, as a false guard does.
public struct Invariant: Hashable, Sendable {
    /// What is checked.
    public enum Rule: Hashable, Sendable {
        /// The comparison holds.
        case check(Condition)
        /// Each path reads a number (or numbers, for a frame) that is neither NaN nor infinite.
        case finite([ValuePath])
    }

    public var name: String
    /// The guard: the rule is checked only while it holds.
    public var when: Condition?
    public var rule: Rule

    public init(name: String, when: Condition? = nil, _ rule: Rule) {
        self.name = name
        self.when = when
        self.rule = rule
    }

    /// Every path the invariant reads, to check them when it is declared.
    public var paths: [ValuePath] {
        var paths = when.map { [$0.path] + ($0.operandPath.map { [$0] } ?? []) } ?? []
        switch rule {
        case .check(let condition): paths += [condition.path] + (condition.operandPath.map { [$0] } ?? [])
        case .finite(let finite): paths += finite
        }
        return paths
    }

    /// Checks the invariant in `simulation`.
    func evaluate(in simulation: Simulation) -> InvariantOutcome {
        do {
            if let when, try !when.evaluate(in: simulation).holds { return .holds }
            switch rule {
            case .check(let condition):
                let (holds, left, right) = try condition.evaluate(in: simulation)
                guard !holds else { return .holds }
                let (actual, expected) = condition.report(left: left, right: right)
                return .broken(actual: actual, expected: expected)
            case .finite(let paths):
                for path in paths {
                    let value = try simulation.value(at: path)
                    guard !(value.map(Self.isFinite) ?? false) else { continue }
                    return .broken(actual: "\(path) = \(value?.jsonText ?? "null")", expected: "a finite number")
                }
                return .holds
            }
        } catch {
            return .holds  // a node that is not in the scene now: the invariant does not apply
        }
    }

    private static func isFinite(_ value: FieldValue) -> Bool {
        switch value {
        case .int: true
        case .double(let number): number.isFinite
        case .dictionary(let fields): !fields.isEmpty && fields.values.allSatisfy(isFinite)
        case .bool, .string, .array: false
        }
    }
}

/// Whether an invariant holds now, and if not, the two sides as read.
public enum InvariantOutcome: Hashable, Sendable {
    case holds
    /// `actual` is what was read (`scroll.contentOffset.x = -4`), `expected` what it had to
    /// satisfy (`>= 0`).
    case broken(actual: String, expected: String)
}
