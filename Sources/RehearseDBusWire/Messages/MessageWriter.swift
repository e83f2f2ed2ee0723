import RehearseCore

/// Appends values to a message body in the D-Bus wire format (little-endian), the one place fields
/// become D-Bus: a field dictionary is `a{sv}`, each value a variant (`b`, `x`, `d`, `s`, `av` for
/// lists, `a{sv}` for mappings). ``OutgoingMessage`` hands the bytes to libdbus, which validates
/// them as it validates every message it reads.
///
/// Built here rather than with libdbus's append iterators: those rewrite the message header for
/// every top-level argument, which made building an `Event` signal cost more than sending it
/// (Benchmarks/README.md, "D-Bus").
package struct MessageWriter {
    /// The bytes so far, from the start of the body (which the wire format aligns to 8, so
    /// alignment here is alignment in the message).
    package private(set) var bytes: [UInt8] = []
    /// The signature of the values appended at this level.
    package private(set) var signature = ""

    package init() {
        bytes.reserveCapacity(256)
    }

    private init(continuing bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A string; D-Bus strings hold no NUL, so the text ends at the first one (as a C string would).
    package mutating func append(_ text: String) {
        appendText(text, type: "s")
    }

    package mutating func append(objectPath: String) {
        appendText(objectPath, type: "o")
    }

    package mutating func append(signature text: String) {
        appendSignatureBytes(text)
        signature += "g"
    }

    package mutating func append(_ value: Bool) {
        appendNumber(UInt32(value ? 1 : 0), type: "b")
    }

    package mutating func append(_ value: UInt8) {
        bytes.append(value)
        signature += "y"
    }

    package mutating func append(_ value: Int32) {
        appendNumber(value, type: "i")
    }

    package mutating func append(_ value: UInt32) {
        appendNumber(value, type: "u")
    }

    package mutating func append(_ value: Double) {
        appendNumber(value.withoutNegativeZero.bitPattern, type: "d")
    }

    package mutating func append(_ value: Int64) {
        appendNumber(value, type: "x")
    }

    package mutating func append(_ value: UInt64) {
        appendNumber(value, type: "t")
    }

    /// A container of type `type` (``DBusType/array`` with its element signature, ``DBusType/variant``
    /// with its value's signature, ``DBusType/struct`` or ``DBusType/dictEntry`` with nil), filled by `body`.
    package mutating func container(_ type: Int32, _ contents: String?, _ body: (inout MessageWriter) -> Void) {
        switch type {
        case DBusType.array:
            let elements = contents ?? ""
            align(4)
            let lengthAt = bytes.count
            appendLittleEndian(UInt32(0))
            align(Self.alignment(of: elements))
            let start = bytes.count
            _ = fill(body)
            withUnsafeBytes(of: UInt32(bytes.count - start).littleEndian) { length in
                bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: length)
            }
            signature += "a" + elements
        case DBusType.variant:
            appendSignatureBytes(contents ?? "")
            _ = fill(body)
            signature += "v"
        default:
            align(8)
            let inner = fill(body)
            signature += type == DBusType.dictEntry ? "{\(inner)}" : "(\(inner))"
        }
    }

    /// `a{sv}`, keys sorted so that equal fields give equal messages.
    package mutating func append(_ fields: Fields) {
        container(DBusType.array, "{sv}") { array in
            for key in fields.keys.sorted() {
                guard let value = fields[key] else { continue }
                array.container(DBusType.dictEntry, nil) { entry in
                    entry.append(key)
                    entry.appendVariant(value)
                }
            }
        }
    }

    package mutating func appendVariant(_ value: FieldValue) {
        switch value {
        case .bool(let flag): container(DBusType.variant, "b") { $0.append(flag) }
        case .int(let number): container(DBusType.variant, "x") { $0.append(number) }
        case .double(let number): container(DBusType.variant, "d") { $0.append(number) }
        case .string(let text): container(DBusType.variant, "s") { $0.append(text) }
        case .array(let items):
            container(DBusType.variant, "av") { variant in
                variant.container(DBusType.array, "v") { array in
                    for item in items { array.appendVariant(item) }
                }
            }
        case .dictionary(let fields):
            container(DBusType.variant, "a{sv}") { $0.append(fields) }
        }
    }

    // MARK: Wire format

    /// Pads with zero bytes to a multiple of `boundary`.
    package mutating func align(_ boundary: Int) {
        let padding = (boundary - bytes.count % boundary) % boundary
        bytes.append(contentsOf: repeatElement(0, count: padding))
    }

    /// Runs `body` on a writer that continues these bytes, takes them back, and returns the
    /// signature of what it appended.
    private mutating func fill(_ body: (inout MessageWriter) -> Void) -> String {
        var inner = MessageWriter(continuing: bytes)
        bytes = []
        body(&inner)
        bytes = inner.bytes
        return inner.signature
    }

    /// A signature's bytes: its length in one byte, the text and a NUL, with no alignment.
    private mutating func appendSignatureBytes(_ text: String) {
        bytes.append(UInt8(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    private mutating func appendText(_ text: String, type: Character) {
        let utf8 = text.utf8.prefix { $0 != 0 }
        appendNumber(UInt32(utf8.count), type: type)
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    private mutating func appendNumber<Number: FixedWidthInteger>(_ value: Number, type: Character) {
        align(MemoryLayout<Number>.size)
        appendLittleEndian(value)
        signature.append(type)
    }

    private mutating func appendLittleEndian<Number: FixedWidthInteger>(_ value: Number) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The alignment of a value whose signature starts `signature`.
    private static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"),
            UInt8(ascii: "a"), UInt8(ascii: "s"), UInt8(ascii: "o"):
            4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 1
        }
    }
}
