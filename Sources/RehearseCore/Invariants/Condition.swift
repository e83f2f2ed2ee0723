/// One comparison, `PATH OP OPERAND`: the form of an invariant's `check:` and `when:`
/// (`gateway.children.count == 1`, `username.presentation.frame.maxY <= keyboard.frame.y`).
/// The operand is a number, a quoted string, `true`, `false` or another path. Numbers compare
/// within ``tolerance``; `<`, `<=`, `>` and `>=` need numbers on both sides.
public struct Condition: Hashable, Sendable, CustomStringConvertible {
    /// How the two sides are compared.
    public enum Operator: String, CaseIterable, Hashable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"

        /// Whether the operator orders numbers (rather than comparing any two values).
        public var orders: Bool { self != .equal && self != .notEqual }
    }

    /// The right-hand side: a value written in the condition, or a path read when it is checked.
    public enum Operand: Hashable, Sendable {
        case value(FieldValue)
        case path(ValuePath)
    }

    /// How far apart two numbers may be and still be equal.
    public static let tolerance = 1e-9

    public var path: ValuePath
    public var op: Operator
    public var operand: Operand

    public init(_ path: String, _ op: Operator, _ operand: Operand) {
        self.path = ValuePath(path)
        self.op = op
        self.operand = operand
    }

    /// Reads `PATH OP OPERAND`; the error names what is wrong and at which character.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        guard text.count <= ScenarioLimits.conditionLength else {
            throw ConditionSyntaxError("a condition is at most \(ScenarioLimits.conditionLength) characters", offset: 0)
        }
        let characters = Array(text)
        var index = 0
        func skipSpaces() { while index < characters.count, characters[index].isWhitespace { index += 1 } }
        skipSpaces()
        let pathStart = index
        while index < characters.count, Self.isPathCharacter(characters[index]) { index += 1 }
        guard index > pathStart else {
            throw ConditionSyntaxError("a condition is PATH OP VALUE, such as gateway.children.count == 1", offset: pathStart)
        }
        let left = String(characters[pathStart..<index])
        skipSpaces()
        let rest = String(characters[index...])
        guard let op = Operator.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw ConditionSyntaxError(
                "expected one of \(Operator.allCases.map(\.rawValue).joined(separator: " ")) after \(left)",
                offset: index)
        }
        index += op.rawValue.count
        skipSpaces()
        let operandStart = index
        let operandText = String(characters[index...]).trimmingSpaces
        guard !operandText.isEmpty else {
            throw ConditionSyntaxError(
                "expected a number, a quoted string, true, false or a path after \(op.rawValue)",
                offset: operandStart)
        }
        let operand = try Self.operand(operandText, offset: operandStart)
        if op.orders, case .value(let value) = operand, value.number == nil {
            throw ConditionSyntaxError("\(op.rawValue) compares numbers, not \(value.typeName)", offset: operandStart)
        }
        self.init(left, op, operand)
    }

    private static func isPathCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
    }

    private static func operand(_ text: String, offset: Int) throws(ConditionSyntaxError) -> Operand {
        switch text {
        case "true": return .value(.bool(true))
        case "false": return .value(.bool(false))
        default: break
        }
        if let quote = text.first, quote == "\"" || quote == "'" {
            guard text.count >= 2, text.last == quote, !text.dropFirst().dropLast().contains(quote) else {
                throw ConditionSyntaxError("a string is written between matching quotes: \(quote)text\(quote)", offset: offset)
            }
            return .value(.string(String(text.dropFirst().dropLast())))
        }
        if let number = Double(text), number.isFinite, text.first.map({ $0.isNumber || "+-.".contains($0) }) == true {
            return .value(.double(number))
        }
        guard text.allSatisfy(isPathCharacter) else {
            throw ConditionSyntaxError("'\(text)' is not a number, a quoted string, true, false or a path", offset: offset)
        }
        return .path(ValuePath(text))
    }

    /// The path on the right, if the operand is one.
    public var operandPath: ValuePath? {
        if case .path(let path) = operand { return path }
        return nil
    }

    public var description: String { "\(path) \(op.rawValue) \(operandText)" }

    private var operandText: String {
        switch operand {
        case .path(let path): path.text
        case .value(.string(let string)): FieldValue.string(string).jsonText
        case .value(.double(let number)): number.shortDescription
        case .value(let value): value.jsonText
        }
    }

    /// Checks the condition in `simulation`: whether it holds, and both sides as read.
    func evaluate(in simulation: Simulation) throws(PathError) -> (holds: Bool, left: FieldValue?, right: FieldValue?) {
        let left = try simulation.value(at: path)
        let right: FieldValue? =
            switch operand {
            case .value(let value): value
            case .path(let path): try simulation.value(at: path)
            }
        return (Self.compare(left, op, right), left, right)
    }

    private static func compare(_ left: FieldValue?, _ op: Operator, _ right: FieldValue?) -> Bool {
        /// Whether both sides are numbers (not NaN) in the order `ordered` wants; false otherwise.
        func numbers(_ ordered: (Double, Double) -> Bool) -> Bool {
            guard let l = left?.number, let r = right?.number, !l.isNaN, !r.isNaN else { return false }
            return ordered(l, r)
        }
        switch op {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return numbers { $0 < $1 - tolerance }
        case .lessOrEqual: return numbers { $0 <= $1 + tolerance }
        case .greater: return numbers { $0 > $1 + tolerance }
        case .greaterOrEqual: return numbers { $0 >= $1 - tolerance }
        }
    }

    private static func equal(_ left: FieldValue?, _ right: FieldValue?) -> Bool {
        guard let left, let right else { return left == nil && right == nil }
        if let l = left.number, let r = right.number { return abs(l - r) <= tolerance }
        return left == right
    }

    /// What the two sides read, for a report: `actual` is the left side, `expected` the operator
    /// with the right side (and the value it read, when it is a path).
    func report(left: FieldValue?, right: FieldValue?) -> (actual: String, expected: String) {
        let actual = "\(path) = \(left?.jsonText ?? "null")"
        let expected = "\(op.rawValue) \(operandText)" + (operandPath == nil ? "" : " = \(right?.jsonText ?? "null")")
        return (actual, expected)
    }
}

/// A condition that cannot be read, with the character (from 0) where the problem is.
public struct ConditionSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}

extension String {
    /// The text without leading and trailing white space.
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
