/// The header of one kind of message, written once: a signal's (its path, interface, member and
/// body signature) or a reply's to a peer (its body signature), so each message of the kind is
/// these bytes with its body's length, its serial and the serial it answers set, then the body
/// (an `Event` signal's header is about half its bytes, and writing it was a tenth of a session's
/// time: Benchmarks/README.md, "D-Bus: sessions in parallel").
///
/// libdbus checks the first message made with it whole, and every one whose body is not plain
/// (``MessageWriter/isPlain``) or is longer than ``plainLength``. The others go out unchecked: the
/// header's bytes libdbus accepted once, the body's plain, both what libdbus would write
/// (`OutgoingMessageTests`).
package struct MessageHeader {
    /// The longest plain body sent without libdbus's check (libdbus refuses an array past 64 MiB).
    package static let plainLength = 1 << 20
    /// Where the header holds the body's length and the serial.
    private static let lengthOffset = 4
    private static let serialOffset = 8
    /// Where a reply's header holds the serial it answers: its first field's value (a reply to a
    /// peer names no destination), after the fixed 12 bytes, the field array's length, the
    /// field's code and its variant's signature `u`.
    private static let replySerialOffset = 20

    package let path: String
    package let interface: String
    package let member: String
    /// The signature every body must have.
    package let signature: String
    /// Whether it is a reply's (whose serial it answers is set for each).
    private let isReply: Bool
    /// The header with length, serial and reply serial 0, padded to 8.
    private let bytes: [UInt8]
    /// Whether libdbus has accepted a message made with it.
    private var isChecked = false

    /// The header of the signals `member` of `interface` on `path`, with bodies of `signature`.
    package init(path: String, interface: String, member: String, signature: String) {
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        isReply = false
        bytes = OutgoingMessage.signal(path: path, interface: interface, member: member)
            .header(bodyLength: 0, serial: 0, signature: signature)
    }

    /// The header of replies to a peer (on a connection with no bus, so to no destination), with
    /// bodies of `signature`.
    package init(replyWithSignature signature: String) {
        path = ""
        interface = ""
        member = ""
        self.signature = signature
        isReply = true
        var bytes = OutgoingMessage(kind: .methodReturn, replySerial: .max).header(bodyLength: 0, serial: 0, signature: signature)
        precondition(
            bytes[Self.replySerialOffset..<Self.replySerialOffset + 4].allSatisfy { $0 == 0xFF }, "a reply's header moved")
        Self.set(0, at: Self.replySerialOffset, in: &bytes)
        self.bytes = bytes
    }

    /// The message with `body` (whose signature must be ``signature``), numbered `serial`, and for
    /// a reply answering the call numbered `replySerial`; nil only if libdbus refuses a message it
    /// checks, which would be a bug here (debug builds stop on it).
    package mutating func encode(_ body: MessageWriter, serial: UInt32, replySerial: UInt32 = 0) -> EncodedMessage? {
        precondition(body.signature == signature, "a body of (\(body.signature)) after a header of (\(signature))")
        var message = bytes
        message.reserveCapacity(bytes.count + body.bytes.count)
        Self.set(UInt32(body.bytes.count), at: Self.lengthOffset, in: &message)
        Self.set(serial, at: Self.serialOffset, in: &message)
        if isReply { Self.set(replySerial, at: Self.replySerialOffset, in: &message) }
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
