/// Reads typed fields out of a field dictionary, naming the field in every error and refusing
/// fields nobody asked for. Made with a payload's ``PayloadFields``, it checks in debug builds that
/// the payload asks for exactly the declared fields, each as required or optional as declared.
public struct FieldReader {
    private let fields: Fields
    private let prefix: String
    private let declared: PayloadFields?
    private var consumed: Set<String> = []

    /// Creates a reader; `prefix` is prepended to field names in errors (`frame.` for nested ones),
    /// and `declared` is what the reads must match.
    public init(_ fields: Fields, prefix: String = "", declared: PayloadFields? = nil) {
        self.fields = fields
        self.prefix = prefix
        self.declared = declared
    }

    /// The value of a field that must be present.
    public mutating func required<Value: FieldConvertible>(
        _ key: String, as type: Value.Type = Value.self
    ) throws(FieldError) -> Value {
        try present(key, try read(key, required: true, as: type))
    }

    /// The value of a field that may be absent.
    public mutating func optional<Value: FieldConvertible>(
        _ key: String, as type: Value.Type = Value.self
    ) throws(FieldError) -> Value? {
        try read(key, required: false, as: type)
    }

    /// A string field that may be absent and whose value must be one of `Choice`'s.
    public mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, as type: Choice.Type = Choice.self
    ) throws(FieldError) -> Choice? where Choice.RawValue == String {
        try self.choice(key, required: false, as: type)
    }

    /// A string field that must be present and whose value must be one of `Choice`'s.
    public mutating func requiredChoice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, as type: Choice.Type = Choice.self
    ) throws(FieldError) -> Choice where Choice.RawValue == String {
        try present(key, try self.choice(key, required: true, as: type))
    }

    /// Fails if the dictionary holds a field that no call asked for.
    public func finish() throws(FieldError) {
        assert(
            declared.map { Set($0.fields.map(\.name)) == consumed } ?? true,
            "read \(consumed.sorted()), declared \(declared?.fields.map(\.name) ?? [])")
        if let unknown = fields.keys.sorted().first(where: { !consumed.contains($0) }) {
            throw FieldError(path: prefix + unknown, problem: .unknown(known: consumed.sorted()))
        }
    }

    private mutating func read<Value: FieldConvertible>(
        _ key: String, required: Bool, as type: Value.Type
    ) throws(FieldError) -> Value? {
        assert(
            declared?.declares(key, required: required) ?? true, "'\(key)' is not declared \(required ? "required" : "optional")")
        consumed.insert(key)
        guard let value = fields[key] else { return nil }
        return try Value(field: value, path: prefix + key)
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, required: Bool, as type: Choice.Type
    ) throws(FieldError) -> Choice? where Choice.RawValue == String {
        guard let raw = try read(key, required: required, as: String.self) else { return nil }
        guard let choice = Choice(rawValue: raw) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError(path: prefix + key, problem: .invalidValue("must be one of \(allowed), found '\(raw)'"))
        }
        return choice
    }

    private func present<Value>(_ key: String, _ value: Value?) throws(FieldError) -> Value {
        guard let value else { throw FieldError(path: prefix + key, problem: .missing) }
        return value
    }

    /// Reads a fixed set of numbers given either as a mapping with `keys` or as a list in that order.
    static func numbers(_ value: FieldValue, path: String, keys: [String]) throws(FieldError) -> [Double] {
        let expected = "{\(keys.joined(separator: ", "))} or a list of \(keys.count) numbers"
        switch value {
        case .dictionary(let fields):
            var reader = FieldReader(fields, prefix: path + ".")
            var numbers: [Double] = []
            for key in keys { numbers.append(try reader.required(key, as: Double.self)) }
            try reader.finish()
            return numbers
        case .array(let items) where items.count == keys.count:
            var numbers: [Double] = []
            for (index, item) in items.enumerated() {
                numbers.append(try Double(field: item, path: "\(path).\(keys[index])"))
            }
            return numbers
        default:
            throw FieldError(path: path, problem: .wrongType(expected: expected, found: value.typeName))
        }
    }
}
