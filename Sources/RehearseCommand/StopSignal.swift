import Foundation

/// Set by SIGINT and SIGTERM once ``install()`` has run; long-running commands (`serve`,
/// `monitor`) read it at least every 100 ms and stop cleanly. A plain flag written from a signal
/// handler, as `sig_atomic_t` would be in C.
nonisolated(unsafe) private var stopRequested = false

enum StopSignal {
    /// Whether SIGINT or SIGTERM has arrived.
    static var isRequested: Bool { stopRequested }

    /// Handles SIGINT and SIGTERM by setting the flag, unblocking them first: a parent may have
    /// started us with them blocked (dispatch worker threads block signals, and a child inherits
    /// the mask), and then they would never arrive.
    static func install() {
        signal(SIGINT) { _ in stopRequested = true }
        signal(SIGTERM) { _ in stopRequested = true }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
