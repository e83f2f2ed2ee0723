import CDBus
import RehearseCore
import Foundation
import Synchronization

/// What the connection thread tells every session's thread: stop, and whether the bus daemon has
/// fallen behind (then no session starts new work, so memory stays bounded).
final class ServiceState: @unchecked Sendable {
    let stopRequested = Atomic<Bool>(false)
    let busBacklogFull = Atomic<Bool>(false)
    /// Signalled when the bus daemon caught up, and when a session is asked to close.
    private let changed = NSCondition()

    /// Records whether the daemon is behind; wakes the sessions waiting for it when it is not.
    func setBusBacklogFull(_ full: Bool) {
        guard busBacklogFull.exchange(full, ordering: .relaxed) != full, !full else { return }
        wakeAll()
    }

    /// Wakes every session waiting in ``waitWhileBusIsBehind(unless:)``.
    func wakeAll() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Waits while the bus daemon is behind, until it catches up, the service stops, or `done`
    /// (checked each time the state changes) says to stop waiting.
    func waitWhileBusIsBehind(unless done: () -> Bool) {
        changed.lock()
        defer { changed.unlock() }
        while busBacklogFull.load(ordering: .relaxed), !stopRequested.load(ordering: .relaxed), !done() {
            changed.wait()
        }
    }
}

/// A created session's own thread: it answers the calls routed to its object and runs its clock,
/// so sessions use the cores there are. What it produces (replies and signals, built as libdbus
/// messages) waits in an outbox until the connection thread sends it: only that thread touches a
/// connection (reference/dbus-notes.md). A message belongs to one thread at a time, handed over
/// under the lock here. Calls are answered in the order they came, so a session's trace depends
/// only on its own calls.
final class SessionWorker: @unchecked Sendable {
    /// Something for the connection thread to send.
    enum Outgoing {
        /// A reply (nil only if it could not be built), to the connection the call came on; the
        /// worker holds a reference to that connection, which the connection thread releases.
        case reply(OpaquePointer?, connection: OpaquePointer)
        case signal(OpaquePointer)
    }

    /// The most messages that may wait in the outbox: past it the session pauses (between calls,
    /// and between the slices of a long `Advance`) until the connection thread has sent them, so
    /// a session faster than its sockets holds bounded memory.
    static let maximumOutbox = 10_000
    /// The most calls that may wait for the session; past it a call is refused at once with
    /// `org.rehearse.Error.Limit`, so no client queues unbounded work behind a long `Advance`.
    static let maximumQueuedCalls = 1_000

    let path: String
    /// Touched only by the worker's thread once it started.
    private let object: SimulatorObject
    private let serials: MessageSerials
    private let state: ServiceState
    private let wake: WakeSignal

    private let condition = NSCondition()
    private var inbox: [(call: OpaquePointer, connection: OpaquePointer)] = []
    private var outbox: [Outgoing] = []
    private var closing = false
    /// Set with the reply to the session's own `Close()` when that reply is put in the outbox, so
    /// the service, which removes the session when it sees this, has the reply to send.
    private var closeRequested = false
    /// Set by the session's own `Close()`; touched only by the worker's thread.
    private var hasClosed = false
    private let finished = DispatchSemaphore(value: 0)

    init(object: SimulatorObject, serials: MessageSerials, state: ServiceState, wake: WakeSignal) {
        path = object.path
        self.object = object
        self.serials = serials
        self.state = state
        self.wake = wake
        object.host = self
        let thread = Thread { [self] in run() }
        thread.name = "rehearse session \(path)"
        thread.start()
    }

    // MARK: The connection thread's side

    /// Queues `call`, which came on `connection`, for the session and takes a reference to both;
    /// false when ``maximumQueuedCalls`` already wait (nothing is queued).
    func submit(_ call: OpaquePointer, from connection: OpaquePointer) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard inbox.count < Self.maximumQueuedCalls else { return false }
        dbus_message_ref(call)
        dbus_connection_ref(connection)
        inbox.append((call, connection))
        condition.signal()
        return true
    }

    /// What the session produced since the last call, in order; and whether it asked to close.
    func takeOutgoing() -> (messages: [Outgoing], closeRequested: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let taken = outbox
        outbox.removeAll(keepingCapacity: true)
        if taken.count >= Self.maximumOutbox { condition.signal() }  // the session may wait for room
        return (taken, closeRequested)
    }

    /// Ends the thread (a long `Advance` stops at its next slice) and waits for it, then writes the
    /// session's recording (throwing what kept it from being written). Calls still queued get
    /// `UnknownObject` replies in the outbox: every call is answered, and the session is gone.
    func close() throws(MethodFailure) {
        condition.lock()
        closing = true
        condition.signal()
        condition.unlock()
        state.wakeAll()
        finished.wait()
        condition.lock()
        for (call, connection) in inbox {
            let refusal = SimulatorObject.Answer.failure(MethodFailure(SimulatorError.unknownObject, "\(path) was closed"))
            outbox.append(.reply(refusal.message(answering: call, serial: serials.take()), connection: connection))
            dbus_message_unref(call)
        }
        inbox.removeAll()
        condition.unlock()
        try object.finishRecording()  // the thread is over: the object is this thread's now
    }

    // MARK: The worker's thread

    private var isClosing: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closing
    }

    private func run() {
        object.session.startPacing()
        while true {
            waitForOutboxRoom()
            condition.lock()
            let idle = SimulatorService.idleMilliseconds
            let wait = hasClosed ? idle : object.session.waitMilliseconds(idle: idle)
            if inbox.isEmpty, !closing { _ = condition.wait(until: Date(timeIntervalSinceNow: Double(wait) / 1000)) }
            if closing {
                condition.unlock()
                finished.signal()
                return
            }
            let calls = inbox
            inbox.removeAll(keepingCapacity: true)
            condition.unlock()
            var produced: [Outgoing] = []
            for (call, connection) in calls {
                // After its own Close() the session answers nothing more and its clock stops, so
                // its recording ends where the client saw it end.
                let answer = hasClosed
                    ? .failure(MethodFailure(SimulatorError.unknownObject, "\(path) was closed"))
                    : object.answerIntrospection(call, objectPaths: [path])
                        ?? object.answer(call, betweenSlices: continueLongWork)
                        ?? .failure(MethodFailure(SimulatorError.unknownMethod, "\(path) has no such method"))
                // The events the call delivered go before its reply: a client that reads events
                // after the reply has them all.
                produced += signals()
                produced.append(.reply(answer.message(answering: call, serial: serials.take()), connection: connection))
                dbus_message_unref(call)
            }
            if !hasClosed, !state.busBacklogFull.load(ordering: .relaxed) { object.session.runDueWork() }
            produced += signals()
            if let changed = object.takePropertiesChanged()?.make(serial: serials.take()) { produced.append(.signal(changed)) }
            publish(produced)
        }
    }

    /// The `Event` signals of what the session delivered since the last call, built.
    private func signals() -> [Outgoing] {
        object.takeEventSignals().compactMap { $0.make(serial: serials.take()).map(Outgoing.signal) }
    }

    private func publish(_ produced: [Outgoing]) {
        guard !produced.isEmpty else { return }
        condition.lock()
        outbox += produced
        closeRequested = hasClosed
        condition.unlock()
        wake.notify()
    }

    /// Between the slices of a long `Advance`: hands over what was delivered, waits while the bus
    /// daemon or the connection thread is behind; false to stop (the service stops, or the
    /// session closes).
    private func continueLongWork() -> Bool {
        publish(signals())
        state.waitWhileBusIsBehind { isClosing }
        waitForOutboxRoom()
        return !state.stopRequested.load(ordering: .relaxed) && !isClosing
    }

    /// Waits while ``maximumOutbox`` messages wait to be sent, until the connection thread takes
    /// them or the session closes (both signal the condition).
    private func waitForOutboxRoom() {
        condition.lock()
        defer { condition.unlock() }
        while outbox.count >= Self.maximumOutbox, !closing {
            condition.wait()
        }
    }
}

extension SessionWorker: SessionHost {
    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String? {
        throw MethodFailure(SimulatorError.notPermitted, "sessions are created at \(SimulatorInterface.path), not at \(path)")
    }

    /// `Close()` on this session, on its own thread: the session stops once the reply is out.
    func closeSession(at path: String) throws(MethodFailure) {
        hasClosed = true
    }
}
