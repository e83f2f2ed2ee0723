import CDBus
import Synchronization

/// A message whose header and body are built in Swift (``MessageWriter``) and handed to libdbus,
/// which validates it as it validates every message it reads (`dbus_message_demarshal`): as a
/// libdbus message (``make(serial:)``) or as bytes (``encode(serial:)``).
package struct OutgoingMessage {
    package enum Kind: UInt8 {
        case methodCall = 1
        case methodReturn = 2
        case signal = 4
    }

    package let kind: Kind
    package var path: String?
    package var interface: String?
    package var member: String?
    package var destination: String?
    package var replySerial: UInt32?
    /// The arguments; the header's signature is theirs.
    package var body = MessageWriter()

    package init(
        kind: Kind, path: String? = nil, interface: String? = nil, member: String? = nil, destination: String? = nil,
        replySerial: UInt32? = nil
    ) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.replySerial = replySerial
    }

    package static func signal(path: String, interface: String, member: String) -> OutgoingMessage {
        OutgoingMessage(kind: .signal, path: path, interface: interface, member: member)
    }

    package static func methodCall(destination: String, path: String, interface: String, member: String) -> OutgoingMessage {
        OutgoingMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination)
    }

    /// The reply to `call`, addressed to its sender (none on a peer-to-peer connection).
    package static func reply(to call: OpaquePointer) -> OutgoingMessage {
        OutgoingMessage(
            kind: .methodReturn, destination: dbus_message_get_sender(call).map { String(cString: $0) },
            replySerial: dbus_message_get_serial(call))
    }

    /// The libdbus message, numbered `serial`; the caller releases it. Nil only if libdbus refuses
    /// the bytes, which would be a bug here (debug builds stop on it).
    package func make(serial: UInt32) -> OpaquePointer? {
        EncodedMessage.demarshal(wireBytes(serial: serial))
    }

    /// The message numbered `serial` as its bytes, which libdbus checks now (nil, as for
    /// ``make(serial:)``, if it refuses them).
    package func encode(serial: UInt32) -> EncodedMessage? {
        EncodedMessage(checking: wireBytes(serial: serial), path: path ?? "", interface: interface ?? "", member: member ?? "")
    }

    /// The header, then the body.
    private func wireBytes(serial: UInt32) -> [UInt8] {
        header(bodyLength: body.bytes.count, serial: serial, signature: body.signature) + body.bytes
    }

    /// The header of this message with a body of `bodyLength` bytes whose signature is
    /// `signature`, numbered `serial`, padded to 8 (where the body starts).
    func header(bodyLength: Int, serial: UInt32, signature: String) -> [UInt8] {
        var header = MessageWriter()
        header.append(UInt8(ascii: "l"))  // little-endian
        header.append(kind.rawValue)
        header.append(UInt8(kind == .methodCall ? 0 : 1))  // flags: no reply expected, as libdbus marks all but calls
        header.append(UInt8(1))  // protocol version
        header.append(UInt32(bodyLength))
        header.append(serial)
        header.container(DBusType.array, "(yv)") { fields in  // in the order libdbus writes them
            if let path { fields.headerField(1, "o") { $0.append(objectPath: path) } }
            if let destination { fields.headerField(6, "s") { $0.append(destination) } }
            if let interface { fields.headerField(2, "s") { $0.append(interface) } }
            if let member { fields.headerField(3, "s") { $0.append(member) } }
            if let replySerial { fields.headerField(5, "u") { $0.append(replySerial) } }
            if !signature.isEmpty { fields.headerField(8, "g") { $0.append(signature: signature) } }
        }
        header.align(8)
        return header.bytes
    }
}

extension MessageWriter {
    /// One `(yv)` entry of the header's field array.
    fileprivate mutating func headerField(_ code: UInt8, _ signature: String, _ value: (inout MessageWriter) -> Void) {
        container(DBusType.struct, nil) { entry in
            entry.append(code)
            entry.container(DBusType.variant, signature, value)
        }
    }
}
