import CDBus
import RehearseDBusInterface
import RehearseDBusWire
import Synchronization

/// What the host answers on a plugin's connection besides `RegisterPlugin`, so that stock clients
/// work on it unmodified (GDBus, sd-bus and dbus-fast greet a peer as they greet a bus): the bus's
/// `Hello`, with a name for the connection, `org.freedesktop.DBus.Peer`'s `Ping` and
/// `GetMachineId`, and `Introspect` of the host's object and the paths above it.
enum PluginHostStandardMethods {
    private static let connections = Atomic<Int>(0)

    /// A new connection's name, the answer to each of its `Hello` calls: `:plugin.N`, unique in
    /// this program.
    static func uniqueName() -> String {
        ":plugin.\(connections.add(1, ordering: .relaxed).newValue)"
    }

    /// The answer to `message` when it calls one of these methods (with their arguments), to the
    /// connection named `uniqueName`; nil for any other call.
    static func answer(_ message: OpaquePointer, uniqueName: String) -> Result<MessageWriter, MethodFailure>? {
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        guard dbus_message_get_signature(message).map({ String(cString: $0) }) == "" else { return nil }
        var reply = MessageWriter()
        switch (interface, member) {
        case ("org.freedesktop.DBus", "Hello"):
            reply.append(uniqueName)
        case ("org.freedesktop.DBus.Peer", "Ping"):
            break
        case ("org.freedesktop.DBus.Peer", "GetMachineId"):
            var error = DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            guard let id = dbus_try_get_local_machine_id(&error) else {
                return .failure(MethodFailure(SimulatorError.failed, "no machine id: \(BusConnection.describe(error))"))
            }
            defer { dbus_free(id) }
            reply.append(String(cString: id))
        case (nil, "Introspect"), ("org.freedesktop.DBus.Introspectable", "Introspect"):
            guard let xml = xml(for: path) else {
                return .failure(
                    MethodFailure(SimulatorError.unknownObject, "no object at \(path): the host's is \(PluginPeerLink.hostPath)"))
            }
            reply.append(xml)
        default:
            return nil
        }
        return .success(reply)
    }

    /// The host's introspection at `path`: its interface at ``PluginPeerLink/hostPath``, the node
    /// below on each path above it; nil elsewhere.
    static func xml(for path: String) -> String? {
        let host = PluginPeerLink.hostPath
        let head = Introspection.doctype + "\n<node>\n" + Introspection.introspectableAndPeer + "\n"
        if path == host {
            return head + "  <interface name=\"\(PluginPeerLink.hostInterface)\">\n"
                + SimulatorMethod.registerPlugin.introspection
                + "  </interface>\n</node>\n"
        }
        let prefix = path == "/" ? "/" : path + "/"
        guard host.hasPrefix(prefix) else { return nil }
        let child = host.dropFirst(prefix.count).prefix { $0 != "/" }
        return head + "  <node name=\"\(child)\"/>\n</node>\n"
    }
}
