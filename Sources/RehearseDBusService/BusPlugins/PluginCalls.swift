import CDBus
import Foundation
import RehearseCore

/// The calls sessions' threads made to plugins registered over the bus, awaiting their answers:
/// a session's thread waits on its call, the service's thread hands it the reply that came from
/// the plugin it was sent to (a reply from anyone else is not taken), and fails the calls to a
/// client that left (and those made to it later), of a session being closed, or of every session
/// when the service stops, so no session waits past that (and the service's thread, which waits
/// for a closed session's thread, never waits for a plugin).
final class PluginCalls: Sendable {
    /// Who a call went to: a client on the bus by its unique name, or a peer by its number (the
    /// daemon never reuses a name, the service never a number; a connection's address is reused).
    enum Callee: Hashable, Sendable {
        case bus(String)
        case peer(Int)

        init(_ owner: SessionTable.Owner) {
            switch owner {
            case .bus(let name): self = .bus(name)
            case .peer(_, let number): self = .peer(number)
            }
        }
    }

    /// How a call ended.
    enum Outcome {
        /// The reply (the waiter releases it).
        case reply(OpaquePointer)
        /// No reply will be taken: the callee left, the session ends or the service stops.
        case gone(Ending)
    }

    /// Why a call gets no reply.
    enum Ending: Error, CustomStringConvertible {
        case calleeLeft, sessionEnds, serviceStops

        var description: String {
            switch self {
            case .calleeLeft: "the plugin's client left"
            case .sessionEnds: "the session ends"
            case .serviceStops: "the service stops"
            }
        }
    }

    private struct Waiting {
        let callee: Callee
        /// The path of the session that made the call.
        let session: String
        var outcome: Outcome?
    }

    private struct State {
        var calls: [UInt32: Waiting] = [:]
        /// Sessions being closed: their calls fail, and so do the calls they would make.
        var endingSessions: Set<String> = []
        /// How many channels call each callee: only a callee that is called is remembered as
        /// ``departed``, until no channel calls it any more.
        var channels: [Callee: Int] = [:]
        /// Called callees that left: a call to one fails at once.
        var departed: Set<Callee> = []
        var stopping = false
    }

    private let state = ConditionLocked(State())

    /// A channel to `callee` was made (``detach(_:)`` when it goes).
    func attach(_ callee: Callee) {
        state.withLock { $0.channels[callee, default: 0] += 1 }
    }

    /// A channel to `callee` went.
    func detach(_ callee: Callee) {
        state.withLock { state in
            let remaining = (state.channels[callee] ?? 1) - 1
            state.channels[callee] = remaining > 0 ? remaining : nil
            if remaining <= 0 { state.departed.remove(callee) }
        }
    }

    /// Expects the reply to the call numbered `serial`, which `session` sends to `callee`; throws
    /// (nothing is expected, and the call is not to be made) when the callee left, that session
    /// ends or the service stops.
    func expect(_ serial: UInt32, from callee: Callee, for session: String) throws(Ending) {
        let refusal: Ending? = state.withLock { state in
            if state.stopping { return .serviceStops }
            if state.endingSessions.contains(session) { return .sessionEnds }
            if state.departed.contains(callee) { return .calleeLeft }
            state.calls[serial] = Waiting(callee: callee, session: session)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Waits until `deadline` for the reply to `serial`; nil when the time ran out (the reply,
    /// if it comes later, is dropped).
    func wait(for serial: UInt32, until deadline: Date) -> Outcome? {
        state.waitThenLock(while: { state in state.calls[serial].map { $0.outcome == nil } ?? false }, until: deadline) { state in
            state.calls.removeValue(forKey: serial)?.outcome
        }
    }

    /// On the service's thread: takes `reply` if it answers an awaited call and comes from that
    /// call's callee; false otherwise (it is not a plugin's).
    func take(_ reply: OpaquePointer, from callee: Callee) -> Bool {
        let serial = dbus_message_get_reply_serial(reply)
        let taken = state.withLock { state in
            guard let waiting = state.calls[serial], waiting.callee == callee, waiting.outcome == nil else { return false }
            dbus_message_ref(reply)
            state.calls[serial]?.outcome = .reply(reply)
            return true
        }
        if taken { state.broadcast() }
        return taken
    }

    /// Fails the calls to `callee` at once, and those made to it later: it left.
    func fail(to callee: Callee) {
        state.withLock { state in
            if state.channels[callee] != nil { state.departed.insert(callee) }
        }
        fail(.calleeLeft) { $0.callee == callee }
    }

    /// Fails the calls `session` made, and every call it makes until ``forget(_:)``: it is being
    /// closed, and its thread must not wait for a plugin (the service's thread waits for it).
    func end(_ session: String) {
        _ = state.withLock { $0.endingSessions.insert(session) }
        fail(.sessionEnds) { $0.session == session }
    }

    /// Forgets `session`, whose thread is over.
    func forget(_ session: String) {
        _ = state.withLock { $0.endingSessions.remove(session) }
    }

    /// Fails every call, and every call made from now on: the service stops.
    func stop() {
        state.withLock { $0.stopping = true }
        fail(.serviceStops) { _ in true }
    }

    private func fail(_ ending: Ending, where matches: (Waiting) -> Bool) {
        state.withLock { state in
            for (serial, waiting) in state.calls where waiting.outcome == nil && matches(waiting) {
                state.calls[serial]?.outcome = .gone(ending)
            }
        }
        state.broadcast()
    }
}
