/// The header of one kind of signal (its path, interface, member and body signature), written
/// once: each signal of the kind is these bytes with its body's length and its serial set, then
/// the body (an `Event` signal's header is about half its bytes, and writing it was a tenth of a
/// session's time: Benchmarks/README.md, "D-Bus: sessions in parallel").
///
/// libdbus checks the first signal made with it whole, and every one whose body is not plain
/// (``MessageWriter/isPlain``) or is longer than ``plainLength``. The others go out unchecked: the
/// header's bytes libdbus accepted once, the body's plain, both what libdbus would write
/// (`OutgoingMessageTests`).
package struct SignalHeader {
    /// The longest plain body sent without libdbus's check (libdbus refuses an array past 64 MiB).
    package static let plainLength = 1 << 20
    /// Where the header holds the body's length and the serial.
    private static let lengthOffset = 4
    private static let serialOffset = 8

    package let path: String
    package let interface: String
    package let member: String
    /// The signature every body must have.
    package let signature: String
    /// The header with length and serial 0, padded to 8.
    private let bytes: [UInt8]
    /// Whether libdbus has accepted a signal made with it.
    private var isChecked = false

    package init(path: String, interface: String, member: String, signature: String) {
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        bytes = OutgoingMessage.signal(path: path, interface: interface, member: member)
            .header(bodyLength: 0, serial: 0, signature: signature)
    }

    /// The signal with `body` (whose signature must be ``signature``), numbered `serial`; nil only
    /// if libdbus refuses a signal it checks, which would be a bug here (debug builds stop on it).
    package mutating func encode(_ body: MessageWriter, serial: UInt32) -> EncodedMessage? {
        precondition(body.signature == signature, "a body of (\(body.signature)) after a header of (\(signature))")
        var message = bytes
        message.reserveCapacity(bytes.count + body.bytes.count)
        Self.set(UInt32(body.bytes.count), at: Self.lengthOffset, in: &message)
        Self.set(serial, at: Self.serialOffset, in: &message)
        message += body.bytes
        guard isChecked, body.isPlain, body.bytes.count <= Self.plainLength else {
            let checked = EncodedMessage(checking: message, path: path, interface: interface, member: member)
            if checked != nil { isChecked = true }
            return checked
        }
        return EncodedMessage(plain: message, path: path, interface: interface, member: member)
    }

    private static func set(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
    }
}
