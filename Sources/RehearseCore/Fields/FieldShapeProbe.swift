/// Learns the shapes of a `Decodable` type's fields from the type alone, by decoding it from
/// nothing: each key it asks for is recorded with the shape of the type asked for (a string, a
/// number, a whole number, a boolean, one of an enum's names) and answered with a stand-in of that
/// type; a list or a mapping of such values is a list or mapping of its shape. A field of another
/// type (a nested structure) is `.any`, left to the reader to check.
/// What a plugin event's fields must be comes from here, for the JSON Schema.
enum FieldShapeProbe {
    /// The shape of each field `type` decodes; empty when it decodes none.
    static func shapes<Value: Decodable>(of type: Value.Type) -> [String: FieldShape] {
        let recorder = Recorder()
        _ = try? Value(from: ProbingDecoder(recorder: recorder))
        return recorder.shapes
    }

    /// The shape of a field of `type`, and a stand-in value of it when the field form has one.
    static func shape(of type: Any.Type) -> (shape: FieldShape, standIn: FieldValue?) {
        switch type {
        case is Bool.Type: return (.boolean, .bool(false))
        case is String.Type: return (.string, .string(""))
        case is Double.Type: return (.number, .double(0))
        case is Int.Type, is Int64.Type: return (.integer, .int(0))
        case is FieldValue.Type: return (.any, .int(0))
        case let mapping as any StringKeyedMapping.Type: return (.mappingOf(mapping.valueShape), .dictionary([:]))
        case let list as any ListOfValues.Type: return (.list(list.elementShape), .array([]))
        default:
            guard let names = CaseNames.of(type), let first = names.first else { return (.any, nil) }
            return (.choice(names), .string(first))
        }
    }

    /// A mapping from names to values of one field form (`[String: Bool]`).
    fileprivate protocol StringKeyedMapping {
        static var valueShape: FieldShape { get }
    }

    /// A list of values of one field form (`[String]`).
    fileprivate protocol ListOfValues {
        static var elementShape: FieldShape { get }
    }

    /// The shapes found so far (a class: every container of one probe writes to it).
    private final class Recorder {
        var shapes: [String: FieldShape] = [:]
    }

    /// The decoder the probed type reads itself from: only its top level's keys are recorded.
    private struct ProbingDecoder: Decoder {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keys<Key>(recorder: recorder))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotAStructure() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotAStructure() }
    }

    private struct NotAStructure: Error {}

    private struct Keys<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            let (shape, standIn) = FieldShapeProbe.shape(of: type)
            recorder.shapes[key.stringValue] = shape
            guard let standIn else { return try Value(from: ProbingDecoder(recorder: Recorder())) }
            return try FieldValueDecoder(value: standIn, codingPath: [key]).decode(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            recorder.shapes[key.stringValue] = .any
            return KeyedDecodingContainer(Keys<NestedKey>(recorder: Recorder()))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotAStructure() }
        func superDecoder() throws -> any Decoder { ProbingDecoder(recorder: recorder) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ProbingDecoder(recorder: Recorder()) }
    }
}

extension Dictionary: FieldShapeProbe.StringKeyedMapping where Key == String, Value: FieldConvertible {
    fileprivate static var valueShape: FieldShape { Value.fieldShape }
}

extension Array: FieldShapeProbe.ListOfValues where Element: FieldConvertible {
    fileprivate static var elementShape: FieldShape { Element.fieldShape }
}
