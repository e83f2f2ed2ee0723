import RehearseCore
import Synchronization

/// What the service's thread tells every session's thread: stop, and whether the bus daemon has
/// fallen behind (then no session starts new work, so memory stays bounded).
final class ServiceState: Sendable {
    let stopRequested = Atomic<Bool>(false)
    let busBacklogFull = Atomic<Bool>(false)
    /// Signalled when the bus daemon caught up, and when a session is asked to close.
    private let changed = ConditionLocked(())

    /// Records whether the daemon is behind; wakes the sessions waiting for it when it is not.
    func setBusBacklogFull(_ full: Bool) {
        guard busBacklogFull.exchange(full, ordering: .relaxed) != full, !full else { return }
        wakeAll()
    }

    /// Wakes every session waiting in ``waitWhileBusIsBehind(unless:)``.
    func wakeAll() {
        changed.broadcast()
    }

    /// Waits while the bus daemon is behind, until it catches up, the service stops, or `done`
    /// (checked each time the state changes) says to stop waiting.
    func waitWhileBusIsBehind(unless done: () -> Bool) {
        changed.waitThenLock(while: { _ in
            busBacklogFull.load(ordering: .relaxed) && !stopRequested.load(ordering: .relaxed) && !done()
        }) { _ in }
    }
}
