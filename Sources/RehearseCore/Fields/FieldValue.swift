/// The field dictionary form of an event or a piece of state: what YAML, D-Bus and JSON traces share.
public typealias Fields = [String: FieldValue]

/// One value in a field dictionary.
public enum FieldValue: Hashable, Sendable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([FieldValue])
    case dictionary(Fields)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .dictionary: "a mapping"
        }
    }

    /// The value as a number, if it is an integer or a number.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool, .string, .array, .dictionary: nil
        }
    }
}

extension FieldValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: FieldValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, FieldValue)...) {
        self = .dictionary(Fields(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension FieldValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([FieldValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode(Fields.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }
}
