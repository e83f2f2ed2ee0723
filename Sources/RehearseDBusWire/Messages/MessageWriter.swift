import RehearseCore

/// Appends values to a message body in the D-Bus wire format (little-endian), the one place fields
/// become D-Bus: a field dictionary is `a{sv}`, each value a variant (`b`, `x`, `d`, `s`, `av` for
/// lists, `a{sv}` for mappings). ``OutgoingMessage`` hands the bytes to libdbus, which validates
/// them as it validates every message it reads; ``MessageHeader`` sends plain bytes (``isPlain``)
/// without that check.
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
    /// Whether these bytes are valid D-Bus whatever libdbus's rules say of text and depth, so they
    /// may go out without libdbus checking them (``MessageHeader``): every text is ASCII (with no
    /// NUL: it ends at the first), no object path or signature was written from outside, and
    /// containers nest at most ``plainDepth`` deep (libdbus refuses past 64).
    package private(set) var isPlain = true
    /// The most containers nested in a body that is still plain.
    package static let plainDepth = 32
    /// How deep the values appended now are nested in containers.
    private var depth = 0

    package init() {
        bytes.reserveCapacity(256)
    }

    private init(continuing bytes: [UInt8], depth: Int, isPlain: Bool) {
        self.bytes = bytes
        self.depth = depth
        self.isPlain = isPlain
    }

    /// A string; D-Bus strings hold no NUL, so the text ends at the first one (as a C string would).
    package mutating func append(_ text: String) {
        appendText(text, type: "s")
    }

    package mutating func append(objectPath: String) {
        appendText(objectPath, type: "o")
        isPlain = false  // whether it is a valid path is libdbus's to check
    }

    package mutating func append(signature text: String) {
        appendSignatureBytes(text)
        signature += "g"
        isPlain = false
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
            setLength(bytes.count - start, at: lengthAt)
            signature += "a" + elements
        case DBusType.variant:
            appendSignatureBytes(contents ?? "")
            isPlain = false  // a signature from outside
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
        writeFields(fields)
        signature += "a{sv}"
    }

    package mutating func appendVariant(_ value: FieldValue) {
        writeVariant(value)
        signature += "v"
    }

    // MARK: Fields, written straight

    /// `a{sv}` without the signature kept: the bytes ``container(_:_:_:)`` would write for it, with
    /// no writer per container (an `Event` signal is mostly this).
    private mutating func writeFields(_ fields: Fields) {
        enter()
        defer { depth -= 1 }
        align(4)
        let lengthAt = bytes.count
        appendLittleEndian(UInt32(0))
        align(8)
        let start = bytes.count
        enter()  // the dictionary entries
        defer { depth -= 1 }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            align(8)
            writeText(key)
            writeVariant(value)
        }
        setLength(bytes.count - start, at: lengthAt)
    }

    /// A variant holding `value`, without the signature kept.
    private mutating func writeVariant(_ value: FieldValue) {
        enter()
        defer { depth -= 1 }
        switch value {
        case .bool(let flag):
            appendStaticSignature("b")
            writeNumber(UInt32(flag ? 1 : 0))
        case .int(let number):
            appendStaticSignature("x")
            writeNumber(number)
        case .double(let number):
            appendStaticSignature("d")
            writeNumber(number.withoutNegativeZero.bitPattern)
        case .string(let text):
            appendStaticSignature("s")
            writeText(text)
        case .array(let items):
            appendStaticSignature("av")
            enter()
            defer { depth -= 1 }
            align(4)
            let lengthAt = bytes.count
            appendLittleEndian(UInt32(0))
            let start = bytes.count  // a variant's alignment is 1
            for item in items { writeVariant(item) }
            setLength(bytes.count - start, at: lengthAt)
        case .dictionary(let fields):
            appendStaticSignature("a{sv}")
            writeFields(fields)
        }
    }

    /// One container deeper: past ``plainDepth`` the bytes are no longer plain.
    private mutating func enter() {
        depth += 1
        if depth > Self.plainDepth { isPlain = false }
    }

    /// A variant's signature that is written here, so known valid.
    private mutating func appendStaticSignature(_ text: StaticString) {
        bytes.append(UInt8(text.utf8CodeUnitCount))
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0)
    }

    // MARK: Wire format

    /// Pads with zero bytes to a multiple of `boundary`.
    package mutating func align(_ boundary: Int) {
        let padding = (boundary - bytes.count % boundary) % boundary
        bytes.append(contentsOf: repeatElement(0, count: padding))
    }

    /// Runs `body` on a writer that continues these bytes one container deeper, takes them back,
    /// and returns the signature of what it appended.
    private mutating func fill(_ body: (inout MessageWriter) -> Void) -> String {
        enter()
        defer { depth -= 1 }
        var inner = MessageWriter(continuing: bytes, depth: depth, isPlain: isPlain)
        bytes = []
        body(&inner)
        bytes = inner.bytes
        isPlain = inner.isPlain
        return inner.signature
    }

    /// Writes `length` as the array length at `offset`.
    private mutating func setLength(_ length: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(length).littleEndian) { length in
            bytes.replaceSubrange(offset..<offset + 4, with: length)
        }
    }

    /// A signature's bytes: its length in one byte, the text and a NUL, with no alignment.
    private mutating func appendSignatureBytes(_ text: String) {
        bytes.append(UInt8(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    private mutating func appendText(_ text: String, type: Character) {
        writeText(text)
        signature.append(type)
    }

    /// A string's bytes (its length, the text up to any NUL, a NUL), without the signature kept.
    private mutating func writeText(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { writeText(utf8: $0) }
        if written == nil { Array(text.utf8).withUnsafeBufferPointer { writeText(utf8: $0) } }
    }

    /// Text's UTF-8 bytes up to the first NUL, copied at once (a 50 KB field went byte by byte).
    private mutating func writeText(utf8: UnsafeBufferPointer<UInt8>) {
        let text = UnsafeBufferPointer(rebasing: utf8[..<(utf8.firstIndex(of: 0) ?? utf8.endIndex)])
        writeNumber(UInt32(text.count))
        bytes.append(contentsOf: text)
        bytes.append(0)
        if isPlain, text.contains(where: { $0 >= 0x80 }) { isPlain = false }
    }

    private mutating func appendNumber<Number: FixedWidthInteger>(_ value: Number, type: Character) {
        writeNumber(value)
        signature.append(type)
    }

    /// A number aligned to its size, without the signature kept.
    private mutating func writeNumber<Number: FixedWidthInteger>(_ value: Number) {
        align(MemoryLayout<Number>.size)
        appendLittleEndian(value)
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
