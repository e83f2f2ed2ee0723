import Foundation
import Synchronization

/// Set by SIGINT and SIGTERM once ``install()`` has run; long-running commands (`serve`,
/// `monitor`) read it at least every 100 ms and stop cleanly. A lock-free atomic, which a signal
/// handler may store to.
private let stopRequested = Atomic<Bool>(false)

enum StopSignal {
    /// Whether SIGINT or SIGTERM has arrived.
    static var isRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Handles SIGINT and SIGTERM by setting the flag, unblocking them first: a parent may have
    /// started us with them blocked (dispatch worker threads block signals, and a child inherits
    /// the mask), and then they would never arrive.
    static func install() {
        signal(SIGINT) { _ in stopRequested.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in stopRequested.store(true, ordering: .relaxed) }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
