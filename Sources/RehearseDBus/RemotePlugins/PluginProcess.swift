import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A command plugin's program, started for one run: looked up on `PATH` as a shell would, run in
/// its folder with standard input closed and its output sent to standard error, with no signal
/// blocked or ignored whatever this program's threads block, and ended (SIGTERM, then SIGKILL
/// after ``gracePeriod``) when the run is done.
final class PluginProcess: Sendable {
    /// How long a program has to exit once asked to.
    static let gracePeriod: Duration = .seconds(1)

    /// The process id: a connection that claims to be this plugin must come from it.
    let pid: pid_t
    /// The `waitpid` status once the program has ended.
    private let status = Mutex<Int32?>(nil)

    /// Starts `command` (program and arguments) in `directory` with `environment` added to this
    /// program's. Throws if it cannot be started.
    init(command: [String], directory: String, environment: [String: String]) throws(PluginStartError) {
        // `env` goes to the folder, finds the program on PATH and becomes it: the process id stays the one started.
        let arguments = ["/usr/bin/env", "-C", directory, "--"] + command
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = Self.withCStrings(arguments) { argv in
            Self.withCStrings(variables) { envp in posix_spawn(&child, "/usr/bin/env", &actions, &attributes, argv, envp) }
        }
        guard result == 0 else {
            throw PluginStartError("cannot start \(command.joined(separator: " ")): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// `strings` as a NULL-terminated array of C strings, for `body`.
    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies + [nil])
    }

    /// Whether the program is still running (it is reaped once it ended).
    var isRunning: Bool {
        status.withLock { reap(&$0, blocking: false) == nil }
    }

    /// How the program ended, for messages: `exited with status 1`, `was killed by signal 9`.
    var ending: String {
        guard let status = status.withLock({ reap(&$0, blocking: false) }) else { return "is running" }
        return status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
    }

    /// The program's status, once it ended, kept in `status`; `blocking` waits for that.
    private func reap(_ status: inout Int32?, blocking: Bool) -> Int32? {
        if status == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, blocking ? 0 : WNOHANG) == pid { status = raw }
        }
        return status
    }

    /// Ends the program: SIGTERM, and SIGKILL if it is still running after ``gracePeriod``.
    func stop() {
        status.withLock { status in
            guard reap(&status, blocking: false) == nil else { return }
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + Self.gracePeriod
            while reap(&status, blocking: false) == nil, ContinuousClock.now < deadline { usleep(2_000) }
            if reap(&status, blocking: false) == nil {
                kill(pid, SIGKILL)
                _ = reap(&status, blocking: true)
            }
        }
    }

    deinit {
        stop()
    }
}

/// Why a command plugin could not be started or did not register: the set-up is wrong.
public struct PluginStartError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
