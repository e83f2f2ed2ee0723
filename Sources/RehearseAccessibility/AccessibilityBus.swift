import CDBus
import RehearseDBusWire

/// The user's accessibility bus, found and joined as toolkits do: its address from
/// `org.a11y.Bus.GetAddress` on the session bus (at-spi2-core's bus launcher answers it), then a
/// connection of its own there.
enum AccessibilityBus {
    /// How long each step of joining may take: the address, registering with the accessibility
    /// bus's daemon, the registry's `Embed`.
    static let callTimeoutMilliseconds: Int32 = 5_000
    /// The registry: its name on the accessibility bus and the socket the application embeds in.
    static let registry = "org.a11y.atspi.Registry"

    /// The accessibility bus's address, asked of the session bus's `org.a11y.Bus`.
    static func address() throws(BusFailure) -> String {
        let session: BusConnection
        do {
            session = try BusConnection(.session)
        } catch {
            throw BusFailure("no accessibility bus: no session bus to ask for it (\(error.message))")
        }
        let call = OutgoingMessage.methodCall(
            destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
        let address: String
        do {
            address = try Self.call(call, on: session) { reader throws(MessageReader.Problem) in try reader.string() }
        } catch {
            throw BusFailure(
                "no accessibility bus: org.a11y.Bus.GetAddress on the session bus failed (\(error.message)); "
                    + "is at-spi2-core's bus launcher installed (Debian's at-spi2-core)?")
        }
        guard !address.isEmpty else { throw BusFailure("no accessibility bus: org.a11y.Bus.GetAddress gave an empty address") }
        return address
    }

    /// Sends `call` on `connection`, waits for its reply and reads it with `read`.
    static func call<Value>(
        _ call: OutgoingMessage, on connection: BusConnection,
        _ read: (inout MessageReader) throws(MessageReader.Problem) -> Value
    ) throws(BusFailure) -> Value {
        guard let message = call.make(serial: serials.take()) else {
            throw BusFailure("cannot build the call \(call.member ?? "")")
        }
        defer { dbus_message_unref(message) }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection.raw, message, callTimeoutMilliseconds, &error)
        else {
            throw BusFailure(BusConnection.describe(error))
        }
        defer { dbus_message_unref(reply) }
        var reader = MessageReader(reply)
        do {
            return try read(&reader)
        } catch {
            throw BusFailure("unexpected reply to \(call.member ?? ""): \(error)")
        }
    }

    /// Serial numbers of the calls made here and of every message the export sends.
    static let serials = MessageSerials()
}
