import RehearseCore
import RehearseDBusWire
import RehearseSession

/// What the export tells listeners as the scene changes, as `org.a11y.atspi.Event.Object`
/// signals, checked at most once a frame and only when the simulation moved on (its clock or its
/// events): `StateChanged` `focused` and `showing`, `BoundsChanged`, `ChildrenChanged` and
/// `TextChanged`, for the objects of the accessible tree.
final class AccessibleAnnouncer {
    /// The shortest wall-clock time between two checks: at most one a frame.
    static let interval = Duration.seconds(1) / 60
    /// The most signals one check sends; past it the rest of the changes go untold (a client
    /// re-reads the tree when it next looks).
    static let maximumSignalsPerCheck = 1_000

    /// What the simulation was at the last check: the same simulation, time and last event mean
    /// nothing changed.
    private struct Stamp: Equatable {
        var simulation: ObjectIdentifier
        var now: VirtualTime
        var sequence: UInt64
    }

    /// One object as last announced.
    private struct Told: Equatable {
        var children: [String]
        var showing: Bool
        /// Its frame on screen, in whole points as clients get it.
        var bounds: [Int32]
    }

    private var lastCheck: ContinuousClock.Instant?
    private var lastStamp: Stamp?
    private var focus: String?
    /// Each text field's text as last announced, a secure field's masked; nil before the first check.
    private var texts: [String: String]?
    private var objects: [String: Told]?
    private var signals: [OutgoingMessage] = []

    /// The signals for what changed since the last check, sent by `sender` (the export's bus
    /// name), `tree` being the tree now; none when a check is not due.
    func changes(in session: SimulatorSession, tree: () -> AccessibleTree, sender: String) -> [OutgoingMessage] {
        let now = ContinuousClock.now
        if let lastCheck, now - lastCheck < Self.interval { return [] }
        lastCheck = now
        let simulation = session.simulation
        let stamp = Stamp(simulation: ObjectIdentifier(simulation), now: simulation.now, sequence: simulation.bus.lastSequence)
        guard stamp != lastStamp else { return [] }
        lastStamp = stamp
        let tree = tree()
        signals = []
        announceFocus(simulation.scene.firstResponder, in: tree)
        announceObjects(in: tree, sender: sender)
        announceTexts(in: tree)
        return signals
    }

    /// `StateChanged` `focused`: 0 on the node that lost focus, 1 on the one that took it.
    private func announceFocus(_ focused: String?, in tree: AccessibleTree) {
        guard focused != focus else { return }
        if let old = focus, tree[old] != nil { send("StateChanged", "focused", of: old, 0, 0, .int32(0)) }
        if let focused, tree[focused] != nil { send("StateChanged", "focused", of: focused, 1, 0, .int32(0)) }
        focus = focused
    }

    /// `StateChanged` `showing` for objects that came on or went off screen, `BoundsChanged` for
    /// objects that moved or changed size (by a whole point at least), and `ChildrenChanged`
    /// (`remove` at the old index, `add` at the new, the child's reference) for objects whose
    /// children changed.
    private func announceObjects(in tree: AccessibleTree, sender: String) {
        let now = tree.items.mapValues { item in
            Told(
                children: item.children, showing: item.states.contains(.showing),
                bounds: [item.frame.minX, item.frame.minY, item.frame.size.width, item.frame.size.height].map(
                    AccessibilityExport.integer))
        }
        let frames = tree.items.mapValues(\.frame)
        defer { objects = now }
        guard let told = objects else { return }
        for (id, object) in now.sorted(by: { $0.key < $1.key }) {
            guard let old = told[id], old != object else { continue }
            if old.showing != object.showing { send("StateChanged", "showing", of: id, object.showing ? 1 : 0, 0, .int32(0)) }
            if old.bounds != object.bounds, let frame = frames[id] { send("BoundsChanged", "", of: id, 0, 0, .rect(frame)) }
            guard old.children != object.children else { continue }
            for (index, child) in old.children.enumerated() where !object.children.contains(child) {
                send("ChildrenChanged", "remove", of: id, index, 0, .reference(.node(child, on: sender)))
            }
            for (index, child) in object.children.enumerated() where !old.children.contains(child) {
                send("ChildrenChanged", "add", of: id, index, 0, .reference(.node(child, on: sender)))
            }
        }
    }

    /// `TextChanged` for each text field in the tree whose text changed: `insert` of what was
    /// added at the end, or `delete` of the old text and `insert` of the new. A secure field's
    /// text goes masked, as `Text` reads it (``AccessibleTree/Item/text``).
    private func announceTexts(in tree: AccessibleTree) {
        var now: [String: String] = [:]
        for item in tree.items.values where item.isEditable { now[item.id] = item.text }
        defer { texts = (texts ?? [:]).merging(now) { $1 } }
        guard let told = texts else { return }
        for (id, text) in now.sorted(by: { $0.key < $1.key }) {
            let old = told[id] ?? ""
            guard text != old else { continue }
            if text.unicodeScalars.starts(with: old.unicodeScalars) {
                sendText(
                    "insert", of: id, at: old.unicodeScalars.count,
                    String(text.unicodeScalars.dropFirst(old.unicodeScalars.count)))
            } else {
                if !old.isEmpty { sendText("delete", of: id, at: 0, old) }
                if !text.isEmpty { sendText("insert", of: id, at: 0, text) }
            }
        }
    }

    private func sendText(_ kind: String, of id: String, at offset: Int, _ text: String) {
        send("TextChanged", kind, of: id, offset, text.unicodeScalars.count, .string(text))
    }

    /// Signal `member` of node `id`: `(siiva{sv})`, as libatspi reads them; none past the limit.
    private func send(
        _ member: String, _ kind: String, of id: String, _ detail1: Int, _ detail2: Int, _ value: AccessibleProperty
    ) {
        guard signals.count < Self.maximumSignalsPerCheck else { return }
        var signal = OutgoingMessage.signal(
            path: AccessiblePaths.path(of: id), interface: "org.a11y.atspi.Event.Object", member: member)
        signal.body.append(kind)
        signal.body.append(Int32(clamping: detail1))
        signal.body.append(Int32(clamping: detail2))
        value.appendVariant(to: &signal.body)
        signal.body.container(DBusType.array, "{sv}") { _ in }
        signals.append(signal)
    }
}
