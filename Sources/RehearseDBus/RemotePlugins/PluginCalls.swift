import CDBus
import Foundation
import RehearseCore

/// The calls sessions' threads made to plugins registered over the bus, awaiting their answers:
/// a session's thread waits on its call, the connection thread hands it the reply that came from
/// the plugin it was sent to (a reply from anyone else is not taken), and fails the calls to a
/// client that left or to every client when the service stops, so no session waits past that.
final class PluginCalls: Sendable {
    /// Who a call went to: a client on the bus by its unique name, or a peer by its connection.
    enum Callee: Hashable, Sendable {
        case bus(String)
        case peer(UInt)

        init(_ owner: SessionTable.Owner) {
            switch owner {
            case .bus(let name): self = .bus(name)
            case .peer(let connection): self = .peer(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))))
            }
        }
    }

    /// How a call ended.
    enum Outcome {
        /// The reply (the waiter releases it).
        case reply(OpaquePointer)
        /// The callee left, or the service stops.
        case gone
    }

    private struct Waiting {
        let callee: Callee
        var outcome: Outcome?
    }

    private let calls = ConditionLocked<[UInt32: Waiting]>([:])

    /// Expects the reply to the call numbered `serial`, sent to `callee`.
    func expect(_ serial: UInt32, from callee: Callee) {
        calls.withLock { $0[serial] = Waiting(callee: callee) }
    }

    /// Waits until `deadline` for the reply to `serial`; nil when the time ran out (the reply,
    /// if it comes later, is dropped).
    func wait(for serial: UInt32, until deadline: Date) -> Outcome? {
        calls.waitThenLock(while: { calls in calls[serial].map { $0.outcome == nil } ?? false }, until: deadline) { calls in
            calls.removeValue(forKey: serial)?.outcome
        }
    }

    /// On the connection thread: takes `reply` if it answers an awaited call and comes from that
    /// call's callee; false otherwise (it is not a plugin's).
    func take(_ reply: OpaquePointer, from callee: Callee) -> Bool {
        let serial = dbus_message_get_reply_serial(reply)
        let taken = calls.withLock { calls in
            guard let waiting = calls[serial], waiting.callee == callee, waiting.outcome == nil else { return false }
            dbus_message_ref(reply)
            calls[serial]?.outcome = .reply(reply)
            return true
        }
        if taken { calls.broadcast() }
        return taken
    }

    /// Fails the calls to `callee` (nil: to everyone) at once.
    func fail(to callee: Callee?) {
        calls.withLock { calls in
            for (serial, waiting) in calls where waiting.outcome == nil && (callee == nil || waiting.callee == callee) {
                calls[serial]?.outcome = .gone
            }
        }
        calls.broadcast()
    }
}
