import CDBus
import Synchronization

/// A message whose header and body are built in Swift (``MessageWriter``) and handed to libdbus,
/// which validates it as it validates every message it reads (`dbus_message_demarshal`).
struct OutgoingMessage {
    enum Kind: UInt8 {
        case methodCall = 1, methodReturn = 2, signal = 4
    }

    let kind: Kind
    var path: String?
    var interface: String?
    var member: String?
    var destination: String?
    var replySerial: UInt32?
    /// The arguments; the header's signature is theirs.
    var body = MessageWriter()

    static func signal(path: String, interface: String, member: String) -> OutgoingMessage {
        OutgoingMessage(kind: .signal, path: path, interface: interface, member: member)
    }

    static func methodCall(destination: String, path: String, interface: String, member: String) -> OutgoingMessage {
        OutgoingMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination)
    }

    /// The reply to `call`, addressed to its sender (none on a peer-to-peer connection).
    static func reply(to call: OpaquePointer) -> OutgoingMessage {
        OutgoingMessage(kind: .methodReturn, destination: dbus_message_get_sender(call).map { String(cString: $0) },
                        replySerial: dbus_message_get_serial(call))
    }

    /// The libdbus message, numbered `serial`; the caller releases it. Nil only if libdbus refuses
    /// the bytes, which would be a bug here (debug builds stop on it).
    func make(serial: UInt32) -> OpaquePointer? {
        var header = MessageWriter()
        header.append(UInt8(ascii: "l"))  // little-endian
        header.append(kind.rawValue)
        header.append(UInt8(kind == .methodCall ? 0 : 1))  // flags: no reply expected, as libdbus marks all but calls
        header.append(UInt8(1))  // protocol version
        header.append(UInt32(body.bytes.count))
        header.append(serial)
        header.container(DBusType.array, "(yv)") { fields in  // in the order libdbus writes them
            if let path { fields.headerField(1, "o") { $0.append(objectPath: path) } }
            if let destination { fields.headerField(6, "s") { $0.append(destination) } }
            if let interface { fields.headerField(2, "s") { $0.append(interface) } }
            if let member { fields.headerField(3, "s") { $0.append(member) } }
            if let replySerial { fields.headerField(5, "u") { $0.append(replySerial) } }
            if !body.signature.isEmpty { fields.headerField(8, "g") { $0.append(signature: body.signature) } }
        }
        header.align(8)
        let bytes = header.bytes + body.bytes
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        assert(message != nil, "libdbus refused a message built here: \(BusConnection.describe(error))")
        return message
    }
}

/// Serial numbers for messages built here, counted down from the top so that they never meet
/// libdbus's own (its calls such as `Hello` and `RequestName`), which count up from 1. Shared by
/// the threads that build messages (the connection's and the sessions').
final class MessageSerials: Sendable {
    private let next = Atomic<UInt32>(UInt32.max)

    func take() -> UInt32 {
        let serial = next.wrappingSubtract(1, ordering: .relaxed).oldValue
        return serial == 0 ? take() : serial  // 0 is not a serial
    }
}

private extension MessageWriter {
    /// One `(yv)` entry of the header's field array.
    mutating func headerField(_ code: UInt8, _ signature: String, _ value: (inout MessageWriter) -> Void) {
        container(DBusType.struct, nil) { entry in
            entry.append(code)
            entry.container(DBusType.variant, signature, value)
        }
    }
}
