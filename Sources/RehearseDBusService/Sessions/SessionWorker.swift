import CDBus
import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession
import Synchronization

/// A created session's own thread: it answers the calls routed to its object and runs its clock,
/// so sessions use the cores there are. What it produces (replies and signals, built as libdbus
/// messages) waits in an outbox until the service's thread sends it: only that thread touches a
/// connection (docs/ARCHITECTURE.md says why). Calls and messages change hands under one lock
/// (``Shared``); the session itself belongs to the worker's thread while it runs, and to the
/// service's thread once it ended (``ThreadBound``, checked in every build). Calls are answered
/// in the order they came, so a session's trace depends only on its own calls.
final class SessionWorker: Sendable {
    /// Something for the service's thread to send. Unchecked: its libdbus message and connection,
    /// each with a reference of its own, go from the session's thread to the service's, which
    /// alone uses and releases them after (libdbus 1.7 and later initialises its own locking, so
    /// its objects may move between threads).
    enum Outgoing: @unchecked Sendable {
        /// A reply (nil only if it could not be built), to the connection the call came on; the
        /// worker holds a reference to that connection, which the service's thread releases.
        case reply(OpaquePointer?, connection: OpaquePointer)
        /// A signal, as its bytes (the service's thread makes a libdbus message of them only for
        /// a connection that needs one).
        case signal(EncodedMessage)
        /// A call to a plugin registered with the session (``BusPluginChannel``), to its client.
        case call(OpaquePointer, to: PluginCalls.Callee)
    }

    /// The most messages that may wait in the outbox: past it the session pauses (between calls,
    /// and between the slices of a long `Advance`) until the service's thread has sent them, so
    /// a session faster than its sockets holds bounded memory.
    static let maximumOutbox = 10_000
    /// The most calls that may wait for the session; past it a call is refused at once with
    /// `org.rehearse.Error.Limit`, so no client queues unbounded work behind a long `Advance`.
    static let maximumQueuedCalls = 1_000
    /// The most plugins one session has, registered or started by its scenario: each
    /// registration reinstalls them all.
    static let maximumPlugins = ScenarioLimits.commandPlugins

    /// What the service's thread and the worker's thread hand each other.
    private struct Shared {
        /// Calls for the session, each with a reference to it and to its connection, and who made it.
        var inbox: [Submitted] = []
        var outbox: [Outgoing] = []
        /// Set by ``close()``: the thread ends at its next look.
        var closing = false
        /// Set with the reply to the session's own `Close()` when that reply is put in the outbox,
        /// so the service, which removes the session when it sees this, has the reply to send.
        var closeRequested = false
    }

    /// A call for the session. Unchecked: the call and its connection, each with a reference of
    /// its own, go from the service's thread to the session's, which alone uses them after.
    private struct Submitted: @unchecked Sendable {
        let call: OpaquePointer
        let connection: OpaquePointer
        let caller: SessionTable.Owner
    }

    /// The session and what only its thread knows of it.
    private final class Owned {
        let object: SimulatorObject
        /// Set by the session's own `Close()`.
        var hasClosed = false
        /// Who made the call being answered.
        var caller: SessionTable.Owner?
        /// Plugins registered by the calls just answered, installed once the replies are out.
        var registered: [(declaration: RemotePluginDeclaration, client: SessionTable.Owner)] = []

        init(object: SimulatorObject) {
            self.object = object
        }
    }

    let path: String
    private let owned: ThreadBound<Owned>
    private let shared = ConditionLocked(Shared())
    private let serials: MessageSerials
    private let state: ServiceState
    private let wake: WakeSignal
    private let finished = DispatchSemaphore(value: 0)

    private let pluginCalls: PluginCalls

    init(object: SimulatorObject, serials: MessageSerials, state: ServiceState, wake: WakeSignal, pluginCalls: PluginCalls) {
        path = object.path
        owned = ThreadBound(Owned(object: object))
        self.serials = serials
        self.state = state
        self.wake = wake
        self.pluginCalls = pluginCalls
        object.host = self
        let thread = Thread { [self] in run() }
        thread.name = "rehearse session \(path)"
        thread.start()
    }

    // MARK: The service's thread's side

    /// Queues `call`, which `caller` made on `connection`, for the session and takes a reference
    /// to both; false when ``maximumQueuedCalls`` already wait (nothing is queued).
    func submit(_ call: OpaquePointer, from connection: OpaquePointer, caller: SessionTable.Owner) -> Bool {
        let queued = shared.withLock { shared in
            guard shared.inbox.count < Self.maximumQueuedCalls else { return false }
            dbus_message_ref(call)
            dbus_connection_ref(connection)
            shared.inbox.append(Submitted(call: call, connection: connection, caller: caller))
            return true
        }
        if queued { shared.broadcast() }
        return queued
    }

    /// What the session produced since the last call, in order; and whether it asked to close.
    func takeOutgoing() -> (messages: [Outgoing], closeRequested: Bool) {
        let (taken, closeRequested) = shared.withLock { shared in
            defer { shared.outbox.removeAll(keepingCapacity: true) }
            return (shared.outbox, shared.closeRequested)
        }
        if taken.count >= Self.maximumOutbox { shared.broadcast() }  // the session may wait for room
        return (taken, closeRequested)
    }

    /// Ends the thread (a long `Advance` stops at its next slice) and waits for it, then writes the
    /// session's recording (throwing what kept it from being written). Calls still queued get
    /// `UnknownObject` replies in the outbox: every call is answered, and the session is gone.
    func close() throws(MethodFailure) {
        shared.withLock { $0.closing = true }
        shared.broadcast()
        state.wakeAll()
        pluginCalls.end(path)  // a call to a plugin would hold this thread up to its deadline
        finished.wait()
        pluginCalls.forget(path)
        owned.claim()  // the thread is over: the session is this thread's now
        let refused = shared.withLock { shared in
            defer { shared.inbox.removeAll() }
            return shared.inbox
        }
        let replies = refused.map { submitted in
            let refusal = SimulatorObject.Answer.failure(MethodFailure(SimulatorError.unknownObject, "\(path) was closed"))
            defer { dbus_message_unref(submitted.call) }
            return Outgoing.reply(
                refusal.message(answering: submitted.call, serial: serials.take()), connection: submitted.connection)
        }
        shared.withLock { $0.outbox += replies }
        try owned.value.object.finishRecording()
    }

    // MARK: The worker's thread

    private var isClosing: Bool {
        shared.withLock { $0.closing }
    }

    private func run() {
        owned.claim()
        owned.value.object.session.startPacing()
        while true {
            waitForOutboxRoom()
            let idle = SimulatorService.idleMilliseconds
            let session = owned.value
            let wait = session.hasClosed ? idle : session.object.session.waitMilliseconds(idle: idle)
            let calls = shared.waitThenLock(
                while: { $0.inbox.isEmpty && !$0.closing },
                until: Date(timeIntervalSinceNow: Double(wait) / 1000)
            ) { shared in
                guard !shared.closing else { return nil as [Submitted]? }
                defer { shared.inbox.removeAll(keepingCapacity: true) }
                return shared.inbox
            }
            guard let calls else {
                finished.signal()
                return
            }
            var produced: [Outgoing] = []
            for submitted in calls {
                let call = submitted.call
                session.caller = submitted.caller
                // After its own Close() the session answers nothing more and its clock stops, so
                // its recording ends where the client saw it end.
                let answer =
                    session.hasClosed
                    ? .failure(MethodFailure(SimulatorError.unknownObject, "\(path) was closed"))
                    : session.object.answerIntrospection(call, objectPaths: [path])
                        ?? session.object.answer(call, betweenSlices: continueLongWork)
                        ?? .failure(MethodFailure(SimulatorError.unknownMethod, "\(path) has no such method"))
                // The events the call delivered go before its reply: a client that reads events
                // after the reply has them all.
                produced += signals()
                produced.append(.reply(answer.message(answering: call, serial: serials.take()), connection: submitted.connection))
                dbus_message_unref(call)
            }
            session.caller = nil
            if !session.registered.isEmpty {
                publish(produced)  // the registrations' replies go before the plugins' first calls
                produced = []
                installRegisteredPlugins()
            }
            if !session.hasClosed, !state.busBacklogFull.load(ordering: .relaxed) { session.object.session.runDueWork() }
            produced += signals()
            if let changed = session.object.takePropertiesChanged()?.encode(serial: serials.take()) {
                produced.append(.signal(changed))
            }
            publish(produced)
        }
    }

    /// Installs the plugins registered by the calls just answered, each called through the
    /// session's outbox; one that cannot be installed (its `Install` failed) is left out, with a
    /// line on standard error.
    private func installRegisteredPlugins() {
        let session = owned.value
        defer { session.registered.removeAll() }
        for (declaration, client) in session.registered {
            let channel = BusPluginChannel(
                client: PluginCalls.Callee(client), session: path, calls: pluginCalls,
                serials: serials
            ) { [unowned self] call in
                publish([call])
            }
            do {
                try session.object.session.register(PluginDescriptor(remote: declaration, channel: channel))
            } catch {
                PeerServer.log("plugin '\(declaration.id)' registered with \(path) but was not installed: \(error.message)")
            }
        }
    }

    /// The `Event` signals of what the session delivered since the last call, built.
    private func signals() -> [Outgoing] {
        owned.value.object.takeEventSignals(serials: serials).map(Outgoing.signal)
    }

    private func publish(_ produced: [Outgoing]) {
        guard !produced.isEmpty else { return }
        let hasClosed = owned.value.hasClosed
        shared.withLock { shared in
            shared.outbox += produced
            shared.closeRequested = hasClosed
        }
        wake.notify()
    }

    /// Between the slices of a long `Advance`: hands over what was delivered, waits while the bus
    /// daemon or the service's thread is behind; false to stop (the service stops, or the
    /// session closes).
    private func continueLongWork() -> Bool {
        publish(signals())
        state.waitWhileBusIsBehind { isClosing }
        waitForOutboxRoom()
        return !state.stopRequested.load(ordering: .relaxed) && !isClosing
    }

    /// Waits while ``maximumOutbox`` messages wait to be sent, until the service's thread takes
    /// them or the session closes (both wake it).
    private func waitForOutboxRoom() {
        shared.waitThenLock(while: { $0.outbox.count >= Self.maximumOutbox && !$0.closing }) { _ in }
    }
}

extension SessionWorker: SessionControl {
    /// `RegisterPlugin` on this session: installed once its reply is out (``installRegisteredPlugins()``).
    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure) {
        let session = owned.value
        guard let client = session.caller else { throw MethodFailure(SimulatorError.notPermitted, "the call came from nobody") }
        guard session.object.session.setup.remotePlugins.count + session.registered.count < Self.maximumPlugins else {
            throw MethodFailure(SimulatorError.limit, "\(path) has \(Self.maximumPlugins) plugins of other programs (the limit)")
        }
        guard !session.registered.contains(where: { $0.declaration.id == declaration.id }) else {
            throw MethodFailure(
                SimulatorError.invalidRegistration, "a plugin '\(declaration.id)' is registering with \(path) already")
        }
        session.registered.append((declaration, client))
    }

    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String? {
        throw MethodFailure(SimulatorError.notPermitted, "sessions are created at \(SimulatorInterface.path), not at \(path)")
    }

    /// `Close()` on this session, on its own thread: the session stops once the reply is out.
    func closeSession(at path: String) throws(MethodFailure) {
        owned.value.hasClosed = true
    }
}
