import Foundation
import RehearseDBus
import Synchronization

/// Set by SIGINT and SIGTERM once ``install()`` has run; long-running commands (`serve`,
/// `monitor`) read it at least every 100 ms and stop cleanly. A lock-free atomic, which a signal
/// handler may store to.
private let stopRequested = Atomic<Bool>(false)
/// The signal that asked for the stop.
private let stopSignalNumber = Atomic<Int32>(0)

enum StopSignal {
    /// Whether SIGINT or SIGTERM has arrived.
    static var isRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Handles SIGINT and SIGTERM by setting the flag, unblocking them first: a parent may have
    /// started us with them blocked (dispatch worker threads block signals, and a child inherits
    /// the mask), and then they would never arrive.
    static func install() {
        signal(SIGINT) { number in
            stopSignalNumber.store(number, ordering: .relaxed)
            stopRequested.store(true, ordering: .relaxed)
        }
        signal(SIGTERM) { number in
            stopSignalNumber.store(number, ordering: .relaxed)
            stopRequested.store(true, ordering: .relaxed)
        }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// For a command that runs to its end without looking at the flag (`run`, `explore`,
    /// `validate`, `plugins`): on SIGINT or SIGTERM, exits as the signal would (128 + its number),
    /// and whichever thread exits, `host`'s plugin programs end and their private folders go
    /// first. Without this the signal ended the program at once, leaving them behind.
    static func endingPlugins(of host: CommandPluginHost) {
        install()
        endedAtExit.withLock { $0 = host }
        atexit {
            endedAtExit.withLock { $0 }?.endBeforeExit()
            if StopSignal.isRequested { _exit(128 + stopSignalNumber.load(ordering: .relaxed)) }
        }
        let watcher = Thread {
            while !isRequested { usleep(50_000) }
            exit(128 + stopSignalNumber.load(ordering: .relaxed))
        }
        watcher.start()
    }
}

/// The plugins ``StopSignal/endingPlugins(of:)`` ends when the program exits.
private let endedAtExit = Mutex<CommandPluginHost?>(nil)
