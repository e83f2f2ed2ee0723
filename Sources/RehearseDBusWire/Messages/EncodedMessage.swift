import CDBus

/// A message built here, kept as its wire bytes: written as they are to a peer's socket
/// (``BatchedWrite``), and made a libdbus message only when a connection's own queue sends it (the
/// bus, a peer that takes no batched writes, what a batch could not write). Every one is valid:
/// libdbus checked its bytes when it was made (``init(checking:path:interface:member:)``), or they
/// are plain bytes after a header libdbus checked once (``MessageHeader``).
///
/// Unchecked `Sendable`: made on a session's thread and handed to the service's thread, which alone
/// uses it after.
package final class EncodedMessage: @unchecked Sendable {
    package let bytes: [UInt8]
    /// The header's path, interface and member, for the peers' match rules.
    package let path: String
    package let interface: String
    package let member: String
    /// The libdbus message of ``bytes``, once made; released with this.
    private var made: OpaquePointer?

    /// `bytes`, checked by libdbus now; nil if it refuses them, which would be a bug here (debug
    /// builds stop on it).
    package init?(checking bytes: [UInt8], path: String, interface: String, member: String) {
        guard let made = Self.demarshal(bytes) else { return nil }
        self.bytes = bytes
        self.path = path
        self.interface = interface
        self.member = member
        self.made = made
    }

    /// `bytes` known valid without libdbus's check (``MessageHeader``).
    init(plain bytes: [UInt8], path: String, interface: String, member: String) {
        self.bytes = bytes
        self.path = path
        self.interface = interface
        self.member = member
    }

    deinit {
        if let made { dbus_message_unref(made) }
    }

    /// The libdbus message of the bytes, made the first time it is asked for; it lives as long as
    /// this (a caller that keeps it takes a reference of its own).
    package var message: OpaquePointer? {
        if made == nil { made = Self.demarshal(bytes) }
        return made
    }

    /// The libdbus message of `bytes`, which libdbus checks as it checks every message it reads
    /// (`dbus_message_demarshal`); the caller releases it. Nil only if libdbus refuses the bytes,
    /// which would be a bug here (debug builds stop on it).
    static func demarshal(_ bytes: [UInt8]) -> OpaquePointer? {
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
