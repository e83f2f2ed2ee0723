/// Decodes a `Decodable` value straight from its field form, with no JSON in between: what
/// ``FieldCodec`` reads plugin events and configurations with on every event. Numbers convert as
/// JSON's would (a whole `2.0` reads as an integer); a value of the wrong type is a
/// ``FieldError`` naming the field.
struct FieldValueDecoder: Decoder {
    /// The value here; nil when the key is absent.
    let value: FieldValue?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let fields)? = value else { throw mismatch("a mapping") }
        return KeyedDecodingContainer(Keyed<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items)? = value else { throw mismatch("a list") }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// The dotted path of the value here (`authenticator.latency`).
    private var path: String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    /// The error for a value that is not `expected`.
    func mismatch(_ expected: String) -> FieldError {
        guard let value else { return FieldError(path: path, problem: .missing) }
        return FieldError(path: path, problem: .wrongType(expected: expected, found: value.typeName))
    }

    /// Decodes `type` from this decoder's value, reading scalars directly.
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        switch type {
        case is Bool.Type:
            guard case .bool(let flag)? = value else { throw mismatch("true or false") }
            return flag as! Value
        case is String.Type:
            guard case .string(let text)? = value else { throw mismatch("a string") }
            return text as! Value
        case is Double.Type:
            guard let number = value?.number else { throw mismatch("a number") }
            return number as! Value
        case is Int.Type:
            return Int(try wholeNumber()) as! Value
        case is Int64.Type:
            return try wholeNumber() as! Value
        case is FieldValue.Type:
            // As a JSON round trip gave it: whole numbers as integers.
            guard let value, let normalised = try? FieldValueEncoder.encode(value) else { throw mismatch("a finite value") }
            return normalised as! Value
        default:
            if let names = CaseNames.of(type) { try checkChoice(among: names) }
            return try Value(from: self)
        }
    }

    /// For an enum of strings: the value is one of its `names`, or an error listing them (Foundation's
    /// own is "Cannot initialize Axis from invalid String value diagonal").
    private func checkChoice(among names: [String]) throws {
        guard case .string(let raw)? = value else { throw mismatch("one of \(names.joined(separator: ", "))") }
        guard names.contains(raw) else {
            throw FieldError(
                path: path,
                problem: .invalidValue(
                    "must be one of \(names.joined(separator: ", ")), found '\(raw)'\(Suggestion.hint(for: raw, among: names))"))
        }
    }

    private func wholeNumber() throws -> Int64 {
        switch value {
        case .int(let number)?: return number
        case .double(let number)? where number == number.rounded() && abs(number) < 9.2e18: return Int64(number)
        default: throw mismatch("a whole number")
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: Fields
        let codingPath: [any CodingKey]
        var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue] == nil }

        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try decoder(for: key).decode(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoder(for: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(for: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { FieldValueDecoder(value: .dictionary(fields), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key) }

        private func decoder(for key: Key) -> FieldValueDecoder {
            FieldValueDecoder(value: fields[key.stringValue], codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [FieldValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [FieldValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try next().decode(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
            NestedKey
        > {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }

        private mutating func next() throws -> FieldValueDecoder {
            let key = IndexKey(intValue: currentIndex)
            guard !isAtEnd else { throw FieldValueDecoder(value: nil, codingPath: codingPath + [key]).mismatch("an item") }
            currentIndex += 1
            return FieldValueDecoder(value: items[currentIndex - 1], codingPath: codingPath + [key])
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let decoder: FieldValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value == nil }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try decoder.decode(type) }
    }
}

/// A list index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
