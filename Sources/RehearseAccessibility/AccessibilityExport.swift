import CDBus
import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// The default session's screen on the user's accessibility bus (AT-SPI2), for screen readers,
/// inspectors and test frameworks (`rehearse serve --atspi`, `rehearse view --atspi`): an
/// application named after the scenario, embedded with the registry, whose objects are the scene's
/// nodes (``AccessibleTree``). Served as a ``SessionCompanion``, on the thread that owns the
/// session, which alone touches the connection (docs/ARCHITECTURE.md): every round reads what the
/// bus sent, answers every call from the scene now, and announces what changed
/// (``AccessibleAnnouncer``). docs/atspi.md says what is served and refused.
package final class AccessibilityExport: SessionCompanion {
    /// How soon the loop comes back while replies wait to be written.
    package static let writeRetryMilliseconds: Int32 = 5
    /// The most bytes that may wait to be written to the accessibility bus's daemon, as for the
    /// service's own bus (docs/dbus.md): past it, the export reads no calls and announces nothing
    /// until the daemon has read what waits (its next announcements then tell what changed meanwhile).
    package static let maximumBacklogBytes = 8 << 20
    /// How long the way out may spend writing what waits and the registry's `Unembed`.
    package static let unembedMilliseconds = 500
    /// The most bytes of calls libdbus reads ahead of their answers: past it, it reads no more from
    /// the socket until they are answered.
    package static let maximumReadAheadBytes = 1 << 20

    let connection: BusConnection
    /// This connection's unique name: the bus name in every reference to its objects.
    let uniqueName: String
    /// The registry's desktop, the application's parent.
    let desktop: AccessibleReference
    /// The name of the application and of its frame.
    let title: String
    /// The version `Application` gives.
    let version: String
    let readOnly: Bool
    /// The id the registry gave the application (`Application.Id`).
    var applicationID: Int32 = 0
    /// This round's tree, built on the first request that needs it (and again after a call
    /// changed the scene).
    var roundTree: AccessibleTree?
    private var owner = ServiceThread()
    /// What listeners were told of the scene.
    private let announcer = AccessibleAnnouncer()
    /// False once the bus connection is gone (the export then stops; the session goes on).
    private var connected = true
    /// Whether more than ``maximumBacklogBytes`` waited at the end of the last round.
    private var behind = false
    private let log = ThrottledLog(prefix: "rehearse: ")

    /// Joins the accessibility bus and embeds an application named `title` (the scenario's
    /// name) with the registry; `readOnly` refuses every action. Throws, with what is missing,
    /// when there is no accessibility bus or no registry.
    package init(title: String, version: String, readOnly: Bool) throws(BusFailure) {
        let address = try AccessibilityBus.address()
        do {
            connection = try BusConnection(.address(address), registeringWithin: AccessibilityBus.callTimeoutMilliseconds)
        } catch {
            throw BusFailure("the accessibility bus did not let the application join: \(error.message)")
        }
        dbus_connection_set_max_received_size(connection.raw, Self.maximumReadAheadBytes)
        uniqueName = dbus_bus_get_unique_name(connection.raw).map { String(cString: $0) } ?? ""
        self.title = title
        self.version = version
        self.readOnly = readOnly
        var embed = OutgoingMessage.methodCall(
            destination: AccessibilityBus.registry, path: AccessiblePaths.root,
            interface: "org.a11y.atspi.Socket", member: "Embed")
        let application = AccessibleReference(name: uniqueName, path: AccessiblePaths.root)
        application.appendStruct(to: &embed.body)
        do {
            desktop = try AccessibilityBus.call(embed, on: connection) { reader throws(MessageReader.Problem) in
                var reference = reader.container()
                return AccessibleReference(name: try reference.string(), path: try reference.string())
            }
        } catch {
            throw BusFailure("the accessibility registry did not embed the application: \(error.message)")
        }
    }

    /// Leaves the registry's desktop on the way out, as toolkits do: `Unembed`, written after what
    /// waits for at most ``unembedMilliseconds`` (a daemon that stopped reading is not waited for).
    deinit {
        guard connected else { return }
        var unembed = OutgoingMessage.methodCall(
            destination: AccessibilityBus.registry, path: AccessiblePaths.root, interface: "org.a11y.atspi.Socket",
            member: "Unembed")
        applicationReference.appendStruct(to: &unembed.body)
        send(unembed)
        let deadline = ContinuousClock.now + .milliseconds(Self.unembedMilliseconds)
        while dbus_connection_has_messages_to_send(connection.raw) != 0, ContinuousClock.now < deadline {
            _ = dbus_connection_read_write(connection.raw, 10)
        }
    }

    // MARK: SessionCompanion

    package func start(waking wake: @escaping @Sendable () -> Void) {
        owner.claim()
    }

    package var readDescriptors: [Int32] {
        var descriptor: Int32 = -1
        // While the daemon is behind, no calls are read: the loop comes back to write (``waitMilliseconds(idle:)``).
        guard connected, !isBacklogFull, dbus_connection_get_unix_fd(connection.raw, &descriptor) != 0 else { return [] }
        return [descriptor]
    }

    package func serve(_ session: SimulatorSession) {
        owner.check()
        guard connected else { return }
        roundTree = nil
        defer { roundTree = nil }
        _ = dbus_connection_read_write(connection.raw, 0)
        // Calls wait, read or unread, while the daemon is behind (libdbus reads at most
        // maximumReadAheadBytes ahead), and so does the announcer's next check.
        while !isBacklogFull, let message = dbus_connection_pop_message(connection.raw) {
            defer { dbus_message_unref(message) }
            if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL { answer(message, session: session) }
        }
        if !isBacklogFull {
            for signal in announcer.changes(in: session, tree: { tree(of: session) }, sender: uniqueName) { send(signal) }
        }
        _ = dbus_connection_read_write(connection.raw, 0)
        noteBacklog()
        if dbus_connection_get_is_connected(connection.raw) == 0 {
            connected = false
            log("the accessibility bus went away: the simulation is no longer exported there")
        }
    }

    package func waitMilliseconds(idle: Int32) -> Int32 {
        // Replies libdbus could not write at once go out on the next rounds, soon, and calls left
        // unread while the daemon was behind are answered soon after it catches up.
        guard connected,
            dbus_connection_has_messages_to_send(connection.raw) != 0
                || dbus_connection_get_dispatch_status(connection.raw) == DBUS_DISPATCH_DATA_REMAINS
        else { return idle }
        return min(idle, Self.writeRetryMilliseconds)
    }

    /// Whether more than ``maximumBacklogBytes`` wait to be written to the daemon.
    private var isBacklogFull: Bool { dbus_connection_get_outgoing_size(connection.raw) > Self.maximumBacklogBytes }

    /// Says when the daemon falls behind and when it catches up.
    private func noteBacklog() {
        let full = isBacklogFull
        guard full != behind else { return }
        behind = full
        log(
            full
                ? "the accessibility bus has \(dbus_connection_get_outgoing_size(connection.raw)) bytes unread (the limit is "
                    + "\(Self.maximumBacklogBytes)): its calls and events wait until it reads"
                : "the accessibility bus read what waited: its calls are answered and events sent again")
    }

    /// This round's tree of `session`'s scene.
    func tree(of session: SimulatorSession) -> AccessibleTree {
        if let roundTree { return roundTree }
        let tree = AccessibleTree(of: session.simulation, title: title)
        roundTree = tree
        return tree
    }

    // MARK: Sending

    /// Sends `message` (built here) on the connection; libdbus writes it as the socket takes it.
    func send(_ message: OutgoingMessage) {
        guard let raw = message.make(serial: AccessibilityBus.serials.take()) else { return }
        dbus_connection_send(connection.raw, raw, nil)
        dbus_message_unref(raw)
    }

    /// Sends the error reply `failure` to `call`.
    func send(_ failure: MethodFailure, to call: OpaquePointer) {
        guard let reply = dbus_message_new_error(call, failure.name, failure.message) else { return }
        dbus_connection_send(connection.raw, reply, nil)
        dbus_message_unref(reply)
    }

}
