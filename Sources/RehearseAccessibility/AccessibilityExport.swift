import CDBus
import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// The default session's screen on the user's accessibility bus (AT-SPI2), for screen readers,
/// inspectors and test frameworks (`rehearse serve --atspi`, `rehearse view --atspi`): an
/// application named after the scenario, embedded with the registry, whose objects are the scene's
/// visible nodes (``AccessibleTree``). Served as a ``SessionCompanion``, on the thread that owns
/// the session, which alone touches the connection (docs/ARCHITECTURE.md): every round reads what
/// the bus sent, answers every call from the scene now, and announces focus changes.
package final class AccessibilityExport: SessionCompanion {
    /// The shortest wall-clock time between two checks for events to send: at most one a frame.
    package static let eventInterval = Duration.seconds(1) / 60
    /// How soon the loop comes back while replies wait to be written.
    package static let writeRetryMilliseconds: Int32 = 5

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
    /// This round's tree, built on the first request that needs it.
    var roundTree: AccessibleTree?
    private var owner = OwnerThread()
    /// The node whose focus was last announced.
    private var announcedFocus: String?
    /// Each text field's text as last announced, a secure field's masked (nil before the first check).
    private var announcedTexts: [String: String]?
    private var lastEventCheck: ContinuousClock.Instant?
    /// False once the bus connection is gone (the export then stops; the session goes on).
    private var connected = true

    /// Joins the accessibility bus and embeds an application named `title` (the scenario's
    /// name) with the registry; `readOnly` refuses every action. Throws, with what is missing,
    /// when there is no accessibility bus or no registry.
    package init(title: String, version: String, readOnly: Bool) throws(BusFailure) {
        connection = try BusConnection(.address(try AccessibilityBus.address()))
        uniqueName = dbus_bus_get_unique_name(connection.raw).map { String(cString: $0) } ?? ""
        self.title = title
        self.version = version
        self.readOnly = readOnly
        var embed = OutgoingMessage.methodCall(destination: AccessibilityBus.registry, path: AccessiblePaths.root,
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

    // MARK: SessionCompanion

    package func start(waking wake: @escaping @Sendable () -> Void) {
        owner.claim()
    }

    package var readDescriptors: [Int32] {
        var descriptor: Int32 = -1
        guard connected, dbus_connection_get_unix_fd(connection.raw, &descriptor) != 0 else { return [] }
        return [descriptor]
    }

    package func serve(_ session: SimulatorSession) {
        owner.check()
        guard connected else { return }
        roundTree = nil
        defer { roundTree = nil }
        _ = dbus_connection_read_write(connection.raw, 0)
        while let message = dbus_connection_pop_message(connection.raw) {
            defer { dbus_message_unref(message) }
            if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL { answer(message, session: session) }
        }
        announceChanges(in: session)
        _ = dbus_connection_read_write(connection.raw, 0)
        if dbus_connection_get_is_connected(connection.raw) == 0 {
            connected = false
            log("the accessibility bus went away: the simulation is no longer exported there")
        }
    }

    package func waitMilliseconds(idle: Int32) -> Int32 {
        // Replies libdbus could not write at once go out on the next rounds, soon.
        connected && dbus_connection_has_messages_to_send(connection.raw) != 0 ? min(idle, Self.writeRetryMilliseconds) : idle
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

    private func log(_ text: String) {
        FileHandle.standardError.write(Data("rehearse: \(text)\n".utf8))
    }

    // MARK: Events

    /// What changed since the last check (at most one a frame): focus and text.
    private func announceChanges(in session: SimulatorSession) {
        let now = ContinuousClock.now
        if let lastEventCheck, now - lastEventCheck < Self.eventInterval { return }
        lastEventCheck = now
        announceFocus(in: session)
        announceTexts(in: session)
    }

    /// `Object:StateChanged:focused` for the node that lost focus and the one that took it, when
    /// the first responder changed since the last announcement.
    private func announceFocus(in session: SimulatorSession) {
        let focused = session.simulation.scene.firstResponder
        guard focused != announcedFocus else { return }
        if let old = announcedFocus { sendStateChanged("focused", of: old, to: false) }
        if let focused, tree(of: session)[focused] != nil { sendStateChanged("focused", of: focused, to: true) }
        announcedFocus = focused
    }

    /// `Object:TextChanged` for each visible text field whose text changed since the last
    /// announcement: `insert` of what was added at the end, or `delete` of the old text and
    /// `insert` of the new. A secure field's text goes masked, a `•` a character.
    private func announceTexts(in session: SimulatorSession) {
        let scene = session.simulation.scene
        var texts: [String: String] = [:]
        for id in scene.allIDs {
            guard let node = scene[id], node.kind.isTextInput else { continue }
            texts[id] = node.secure ? String(repeating: "•", count: node.text.unicodeScalars.count) : node.text
        }
        defer { announcedTexts = texts }
        guard let announced = announcedTexts else { return }
        for (id, text) in texts.sorted(by: { $0.key < $1.key }) {
            let old = announced[id] ?? ""
            guard text != old, tree(of: session)[id] != nil else { continue }
            if text.unicodeScalars.starts(with: old.unicodeScalars) {
                sendTextChanged("insert", of: id, at: old.unicodeScalars.count, String(text.unicodeScalars.dropFirst(old.unicodeScalars.count)))
            } else {
                if !old.isEmpty { sendTextChanged("delete", of: id, at: 0, old) }
                if !text.isEmpty { sendTextChanged("insert", of: id, at: 0, text) }
            }
        }
    }

    /// `org.a11y.atspi.Event.Object` signal `member` of node `id`: `(siiva{sv})`, as libatspi reads them.
    private func sendEvent(_ member: String, _ kind: String, of id: String, _ detail1: Int, _ detail2: Int, _ value: AccessibleProperty) {
        var signal = OutgoingMessage.signal(path: AccessiblePaths.path(of: id), interface: "org.a11y.atspi.Event.Object", member: member)
        signal.body.append(kind)
        signal.body.append(Int32(clamping: detail1))
        signal.body.append(Int32(clamping: detail2))
        value.appendVariant(to: &signal.body)
        signal.body.container(DBusType.array, "{sv}") { _ in }
        send(signal)
    }

    private func sendTextChanged(_ kind: String, of id: String, at offset: Int, _ text: String) {
        sendEvent("TextChanged", kind, of: id, offset, text.unicodeScalars.count, .string(text))
    }

    private func sendStateChanged(_ state: String, of id: String, to value: Bool) {
        sendEvent("StateChanged", state, of: id, value ? 1 : 0, 0, .int32(0))
    }
}
