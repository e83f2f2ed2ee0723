import CDBus
import RehearseCore

/// Reads message arguments into field values, with the limits the service promises: strings up to
/// 64 KiB, at most 1,000 fields in all, containers nested at most 32 deep, finite numbers only.
package struct MessageReader {
    package static let maximumStringBytes = 64 * 1024
    package static let maximumFields = 1000
    package static let maximumDepth = 32

    /// Why arguments were refused: a wrong signature (InvalidArgs), a bad value (InvalidField),
    /// which names the field that holds it when there is one, or a count or depth of the whole call
    /// past its limit (InvalidField).
    package enum Problem: Error, CustomStringConvertible {
        case signature(String)
        /// `field`: the value's place, dotted keys and `[index]` for a list's items.
        case value(String, field: String? = nil)
        case limit(String)

        /// The longest field path a problem names; past it, `…` stands for the outer parts.
        package static let maximumPathBytes = 256
        private static let truncated = "…"

        package var description: String {
            switch self {
            case .signature(let reason), .value(let reason, nil), .limit(let reason): reason
            // Quoted as JSON: a key's control characters are escaped, not written to a log raw.
            case .value(let reason, let field?): "field \(FieldValue.string(field).jsonText): \(reason)"
            }
        }

        /// The same problem found in the value of the field `key` (`rotationRate` around `y`
        /// makes `field "rotationRate.y": numbers must be finite, found nan`).
        fileprivate func inField(_ key: String) -> Problem {
            within(key.utf8.count <= Self.maximumPathBytes ? key : Self.truncated, separator: ".")
        }

        /// The same problem found in item `index` of a list.
        fileprivate func inItem(_ index: Int) -> Problem {
            within("[\(index)]", separator: "")
        }

        private func within(_ part: String, separator: String) -> Problem {
            guard case .value(let reason, let field) = self else { return self }
            guard let field else { return .value(reason, field: part) }
            guard !field.hasPrefix(Self.truncated + ".") else { return self }
            let joiner = field.hasPrefix("[") ? "" : "."
            let path = part + joiner + field
            return .value(reason, field: path.utf8.count <= Self.maximumPathBytes ? path : Self.truncated + "." + field)
        }
    }

    private var iter = DBusMessageIter()
    /// The type of the argument at the iterator, read once per position.
    package private(set) var currentType: Int32
    private var fieldCount = 0
    /// The longest string a value may hold (``fields(maximumStringBytes:)``).
    private var stringLimit = maximumStringBytes

    package init(_ message: OpaquePointer) {
        let hasArguments = dbus_message_iter_init(message, &iter) != 0
        currentType = hasArguments ? dbus_message_iter_get_arg_type(&iter) : DBusType.invalid
    }

    private init(iter: DBusMessageIter) {
        self.iter = iter
        currentType = dbus_message_iter_get_arg_type(&self.iter)
    }

    /// A reader of the container at `iter`, counting fields and limiting strings as this one does.
    private func reader(of iter: DBusMessageIter) -> MessageReader {
        var reader = MessageReader(iter: iter)
        reader.fieldCount = fieldCount
        reader.stringLimit = stringLimit
        return reader
    }

    private mutating func advance() {
        currentType = dbus_message_iter_next(&iter) != 0 ? dbus_message_iter_get_arg_type(&iter) : DBusType.invalid
    }

    package mutating func string(maximumBytes: Int = maximumStringBytes) throws(Problem) -> String {
        guard currentType == DBusType.string || currentType == DBusType.objectPath else { throw .signature("expected a string") }
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        advance()
        guard let pointer else { return "" }
        let text = String(cString: pointer)
        guard text.utf8.count <= maximumBytes else {
            throw .value("a string is \(text.utf8.count) bytes; the limit is \(maximumBytes)")
        }
        return text
    }

    package mutating func uint64() throws(Problem) -> UInt64 {
        try basic(DBusType.uint64, "a uint64", of: UInt64.self)
    }

    package mutating func int32() throws(Problem) -> Int32 {
        try basic(DBusType.int32, "an int32", of: Int32.self)
    }

    package mutating func uint32() throws(Problem) -> UInt32 {
        try basic(DBusType.uint32, "a uint32", of: UInt32.self)
    }

    /// A number of D-Bus type `type` (named `name` in the error) read as `Number`.
    private mutating func basic<Number: FixedWidthInteger>(_ type: Int32, _ name: String, of _: Number.Type) throws(Problem)
        -> Number
    {
        guard currentType == type else { throw .signature("expected \(name)") }
        var value: Number = 0
        dbus_message_iter_get_basic(&iter, &value)
        advance()
        return value
    }

    package mutating func double() throws(Problem) -> Double {
        guard currentType == DBusType.double else { throw .signature("expected a double") }
        var value = 0.0
        dbus_message_iter_get_basic(&iter, &value)
        advance()
        guard value.isFinite else { throw .value("numbers must be finite, found \(value)") }
        return value
    }

    /// `a{sv}` (or any dictionary with string keys) as fields, strings in it up to `maximumStringBytes`.
    package mutating func fields(maximumStringBytes: Int = maximumStringBytes) throws(Problem) -> Fields {
        stringLimit = maximumStringBytes
        defer { stringLimit = Self.maximumStringBytes }
        guard case .dictionary(let fields) = try value(depth: 0) else { throw .signature("expected a{sv}") }
        return fields
    }

    /// `v` (or any value) as a field value.
    package mutating func variant() throws(Problem) -> FieldValue {
        try value(depth: 0)
    }

    /// `a{ss}` as key-value pairs in order.
    package mutating func stringPairs() throws(Problem) -> [(key: String, value: String)] {
        var reader = try array(of: DBusType.dictEntry, "a{ss}")
        var pairs: [(key: String, value: String)] = []
        while reader.currentType == DBusType.dictEntry {
            var entryReader = reader.container()
            pairs.append((try entryReader.string(), try entryReader.string()))
            guard pairs.count <= Self.maximumFields else { throw .limit("more than \(Self.maximumFields) fields") }
        }
        guard reader.currentType == DBusType.invalid else { throw .signature("expected a{ss}") }
        return pairs
    }

    /// A reader of the array at the iterator, whose elements must be of `elementType` (the
    /// signature `expected` names), the iterator moved past it.
    package mutating func array(of elementType: Int32, _ expected: String) throws(Problem) -> MessageReader {
        guard currentType == DBusType.array, dbus_message_iter_get_element_type(&iter) == elementType else {
            throw .signature("expected \(expected)")
        }
        var array = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &array)
        advance()
        return MessageReader(iter: array)
    }

    /// A reader of the members of the struct or dictionary entry at the iterator, the iterator
    /// moved past it.
    package mutating func container() -> MessageReader {
        var members = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &members)
        advance()
        return MessageReader(iter: members)
    }

    /// Fails if arguments are left over.
    package func finish() throws(Problem) {
        guard currentType == DBusType.invalid else { throw .signature("too many arguments") }
    }

    /// Any value as a field value: integers of every width, doubles, booleans, strings, variants,
    /// arrays (lists) and dictionaries with string keys (mappings).
    private mutating func value(depth: Int) throws(Problem) -> FieldValue {
        guard depth <= Self.maximumDepth else { throw .limit("values are nested deeper than \(Self.maximumDepth)") }
        let type = currentType
        switch type {
        case DBusType.boolean:
            var flag: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iter, &flag)
            advance()
            return .bool(flag != 0)
        case DBusType.byte, DBusType.int16, DBusType.uint16, DBusType.int32, DBusType.uint32, DBusType.int64:
            var raw: UInt64 = 0
            dbus_message_iter_get_basic(&iter, &raw)
            advance()
            return .int(Self.integer(raw, type: type))
        case DBusType.uint64:
            var raw: UInt64 = 0
            dbus_message_iter_get_basic(&iter, &raw)
            advance()
            guard let value = Int64(exactly: raw) else { throw .value("\(raw) is too large") }
            return .int(value)
        case DBusType.double:
            return .double(try double())
        case DBusType.string, DBusType.objectPath, DBusType.signature:
            if type == DBusType.signature {
                var pointer: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(&iter, &pointer)
                advance()
                return .string(pointer.map { String(cString: $0) } ?? "")
            }
            return .string(try string(maximumBytes: stringLimit))
        case DBusType.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            advance()
            var reader = reader(of: inner)
            let value = try reader.value(depth: depth + 1)
            fieldCount = reader.fieldCount
            return value
        case DBusType.array:
            // The element type, not the first element, tells a dictionary: an empty a{sv} has none.
            let elementType = dbus_message_iter_get_element_type(&iter)
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            advance()
            var reader = reader(of: inner)
            defer { fieldCount = reader.fieldCount }
            if elementType == DBusType.dictEntry {
                var fields: Fields = [:]
                while reader.currentType == DBusType.dictEntry {
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&reader.iter, &entry)
                    reader.advance()
                    var entryReader = reader.reader(of: entry)
                    guard entryReader.currentType == DBusType.string else { throw .signature("dictionary keys must be strings") }
                    let key = try entryReader.string()
                    do { fields[key] = try entryReader.value(depth: depth + 1) } catch { throw error.inField(key) }
                    reader.fieldCount = entryReader.fieldCount + 1
                    guard reader.fieldCount <= Self.maximumFields else { throw .limit("more than \(Self.maximumFields) fields") }
                }
                return .dictionary(fields)
            }
            var items: [FieldValue] = []
            while reader.currentType != DBusType.invalid {
                do { items.append(try reader.value(depth: depth + 1)) } catch { throw error.inItem(items.count) }
                reader.fieldCount += 1
                guard reader.fieldCount <= Self.maximumFields else { throw .limit("more than \(Self.maximumFields) fields") }
            }
            return .array(items)
        case DBusType.invalid:
            throw .signature("an argument is missing")
        default:
            throw .signature(
                "values of D-Bus type '\(Character(UnicodeScalar(UInt8(truncatingIfNeeded: type))))' are not supported")
        }
    }

    /// Sign-extends the basic value libdbus wrote into the low bytes of `raw`.
    private static func integer(_ raw: UInt64, type: Int32) -> Int64 {
        switch type {
        case DBusType.byte: Int64(UInt8(truncatingIfNeeded: raw))
        case DBusType.int16: Int64(Int16(truncatingIfNeeded: raw))
        case DBusType.uint16: Int64(UInt16(truncatingIfNeeded: raw))
        case DBusType.int32: Int64(Int32(truncatingIfNeeded: raw))
        case DBusType.uint32: Int64(UInt32(truncatingIfNeeded: raw))
        default: Int64(bitPattern: raw)
        }
    }
}
