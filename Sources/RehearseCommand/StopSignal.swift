import Foundation
import RehearsePluginHost
import Synchronization

/// Set by SIGINT and SIGTERM once ``install()`` has run; long-running commands (`serve`,
/// `monitor`) read it at least every 100 ms and stop cleanly. A lock-free atomic, which a signal
/// handler may store to.
private let stopRequested = Atomic<Bool>(false)
/// The signal that asked for the stop.
private let stopSignalNumber = Atomic<Int32>(0)
/// A pipe the handlers write a byte to (`write` is safe in a signal handler), so that a thread
/// waits for a stop in a blocking read instead of polling the flag. Not inherited by programs
/// Rehearse starts; its write end never blocks (a full pipe already wakes the reader, and a
/// handler must not wait).
private let stopPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    return (ends[0], ends[1])
}()
/// The pipe's write end once ``StopSignal/install()`` has made it: what a handler writes to.
private let stopPipeWriteEnd = Atomic<Int32>(-1)

enum StopSignal {
    /// Whether SIGINT or SIGTERM has arrived.
    static var isRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Handles SIGINT and SIGTERM by setting the flag, unblocking them first: a parent may have
    /// started us with them blocked (dispatch worker threads block signals, and a child inherits
    /// the mask), and then they would never arrive.
    static func install() {
        stopPipeWriteEnd.store(stopPipe.write, ordering: .relaxed)
        signal(SIGINT, requestStop)
        signal(SIGTERM, requestStop)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// For a command that runs to its end without looking at the flag (`run`, `explore`,
    /// `validate`, `plugins`): on SIGINT or SIGTERM, exits as the signal would (128 + its number),
    /// and whichever thread exits, `host`'s plugin programs end and their private folders go
    /// first. Without this the signal ended the program at once, leaving them behind. The
    /// watcher ends them itself and leaves with `_exit`: were it to call `exit` while another
    /// thread does (a run failing because its plugin was ended), the exit code and the clean-up
    /// would be whichever came first; a thread that exits meanwhile waits for the plugins' end
    /// (``CommandPluginHost/endBeforeExit()`` runs once) and leaves with the signal's code too.
    static func endingPlugins(of host: CommandPluginHost) {
        watch(Ending(host: host, status: nil))
    }

    /// For a command that reads the flag once it is set up (`serve`, `view`): until
    /// ``setUpIsOver()``, a signal ends `host`'s plugin programs and the program at once, with
    /// status 0 as after the set-up, as ``endingPlugins(of:)`` does. Setting up starts command
    /// plugins, each of which may take up to its deadline to answer, and reads no flag.
    static func endingPluginsWhileSettingUp(of host: CommandPluginHost) {
        watch(Ending(host: host, status: 0))
    }

    /// For `run --watch`, which runs until it is stopped: a signal ends `host`'s plugin programs
    /// and the program with status 0, as ``endingPluginsWhileSettingUp(of:)`` does while setting up.
    static func endingPluginsAndSucceeding(of host: CommandPluginHost) {
        watch(Ending(host: host, status: 0))
    }

    /// Hands the signals over to the flag, which the command reads from now on; if one came
    /// meanwhile and the program is being ended, never returns.
    static func setUpIsOver() {
        ending.withLock { $0 = nil }
    }

    /// Handles the signals, and on the first ends `ending`'s plugins and the program while it is
    /// set (held meanwhile, so that whoever reads or changes it waits for the exit).
    private static func watch(_ ending: Ending) {
        install()
        StopSignal.ending.withLock { $0 = ending }
        atexit {
            StopSignal.ending.withLock { ending in
                ending?.host.endBeforeExit()
                if let ending, StopSignal.isRequested { _exit(ending.exitStatus) }
            }
        }
        let watcher = Thread {
            var byte: UInt8 = 0
            while read(stopPipe.read, &byte, 1) < 0, errno == EINTR {}
            StopSignal.ending.withLock { ending in
                guard let ending else { return }
                ending.host.endBeforeExit()
                fflush(nil)
                _exit(ending.exitStatus)
            }
        }
        watcher.start()
    }

    /// The plugins a signal ends, and the status the program then exits with.
    private struct Ending {
        let host: CommandPluginHost
        /// Nil: 128 + the signal's number.
        let status: Int32?

        var exitStatus: Int32 { status ?? 128 + stopSignalNumber.load(ordering: .relaxed) }
    }

    /// What a signal ends while the program does not read the flag.
    private static let ending = Mutex<Ending?>(nil)
}

/// The handler of SIGINT and SIGTERM: notes the signal, sets the flag and wakes whoever waits.
private func requestStop(_ number: Int32) {
    stopSignalNumber.store(number, ordering: .relaxed)
    stopRequested.store(true, ordering: .relaxed)
    var byte: UInt8 = 1
    _ = write(stopPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
}
