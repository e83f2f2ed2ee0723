/// Encodes an `Encodable` value straight to its field form, with no JSON in between, giving what a
/// JSON round trip gave: a whole number is an integer (`2.0` becomes `2`), and a value that JSON
/// cannot hold (NaN, infinity) is an error.
final class FieldValueEncoder: Encoder {
    /// A value being built: containers write into it after they are handed out.
    private final class Slot {
        enum Content {
            case empty
            case value(FieldValue)
            case mapping([String: Slot])
            case list([Slot])
        }

        var content = Content.empty

        var fieldValue: FieldValue? {
            switch content {
            case .empty: nil
            case .value(let value): value
            case .mapping(let slots): .dictionary(slots.compactMapValues(\.fieldValue))
            case .list(let slots): .array(slots.compactMap(\.fieldValue))
            }
        }
    }

    /// A value JSON cannot hold.
    struct Unrepresentable: Error {}

    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let slot: Slot

    private init(slot: Slot, codingPath: [any CodingKey]) {
        self.slot = slot
        self.codingPath = codingPath
    }

    /// The field form of `value`.
    static func encode(_ value: some Encodable) throws -> FieldValue? {
        let slot = Slot()
        try FieldValueEncoder(slot: slot, codingPath: []).encodeValue(value)
        return slot.fieldValue
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .mapping = slot.content {} else { slot.content = .mapping([:]) }
        return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = slot.content {} else { slot.content = .list([]) }
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// Writes `value` into this encoder's slot, scalars directly.
    fileprivate func encodeValue<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let flag as Bool: slot.content = .value(.bool(flag))
        case let text as String: slot.content = .value(.string(text))
        case let number as Int: slot.content = .value(.int(Int64(number)))
        case let number as Int64: slot.content = .value(.int(number))
        case let number as Double: slot.content = .value(try Self.jsonNumber(number))
        case let field as FieldValue: slot.content = .value(try Self.normalised(field))
        default: try value.encode(to: self)
        }
    }

    /// A number as JSON gives it back: whole numbers as integers.
    private static func jsonNumber(_ number: Double) throws -> FieldValue {
        guard number.isFinite else { throw Unrepresentable() }
        return number == number.rounded() && abs(number) < 9.2e18 ? .int(Int64(number)) : .double(number)
    }

    /// `value` as an encoded value has it: whole numbers as integers, at every depth.
    static func normalised(_ value: FieldValue) throws -> FieldValue {
        switch value {
        case .double(let number): try jsonNumber(number)
        case .array(let items): .array(try items.map(normalised))
        case .dictionary(let fields): .dictionary(try fields.mapValues(normalised))
        case .bool, .int, .string: value
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [any CodingKey]

        private func encoder(_ key: Key) -> FieldValueEncoder {
            let new = Slot()
            if case .mapping(var slots) = slot.content {
                slots[key.stringValue] = new
                slot.content = .mapping(slots)
            }
            return FieldValueEncoder(slot: new, codingPath: codingPath + [key])
        }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try encoder(key).encodeValue(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            encoder(key).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder(key).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { FieldValueEncoder(slot: slot, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        var count: Int {
            if case .list(let slots) = slot.content { return slots.count }
            return 0
        }

        private func encoder() -> FieldValueEncoder {
            let new = Slot()
            let key = IndexKey(intValue: count)
            if case .list(var slots) = slot.content {
                slots.append(new)
                slot.content = .list(slots)
            }
            return FieldValueEncoder(slot: new, codingPath: codingPath + [key])
        }

        mutating func encodeNil() throws {}
        mutating func encode<Value: Encodable>(_ value: Value) throws { try encoder().encodeValue(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder() }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoder: FieldValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws {}
        mutating func encode<Value: Encodable>(_ value: Value) throws { try encoder.encodeValue(value) }
    }
}
