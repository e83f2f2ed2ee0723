import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A command plugin's program, started for one run: looked up on `PATH` as a shell would, run in
/// its folder with standard input closed and its output sent to standard error, with no signal
/// blocked or ignored whatever this program's threads block, in a process group of its own, and
/// ended with that group (SIGTERM, then SIGKILL after ``gracePeriod``) when the run is done: a
/// child it left behind, holding the connection or not, ends with it, and so does one that left
/// the group while the program runs, or, in a program that adopts orphans, once it has ended
/// (``PluginDescendants``).
final class PluginProcess: Sendable {
    /// How long a program has to exit once asked to.
    static let gracePeriod: Duration = .seconds(1)

    /// The process id: a connection that claims to be this plugin must come from it.
    let pid: pid_t
    /// The CPUs the program was started with: the starting thread's, which it inherited (nil if
    /// the system did not say).
    let startingCPUs: cpu_set_t?
    /// How the program ended, once it has, and whether ``stop()`` reaped it.
    private let state = Mutex<(ended: (code: Int32, value: Int32)?, reaped: Bool)>((nil, false))

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
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        startingCPUs = PluginPlacement.callingThreadCPUs()
        pid = try PluginDescendants.start { () throws(PluginStartError) -> pid_t in
            var child: pid_t = 0
            let result = Self.withCStrings(arguments) { argv in
                Self.withCStrings(variables) { envp in posix_spawn(&child, "/usr/bin/env", &actions, &attributes, argv, envp) }
            }
            guard result == 0 else {
                throw PluginStartError("cannot start \(command.joined(separator: " ")): \(String(cString: strerror(result)))")
            }
            return child
        }
    }

    /// `strings` as a NULL-terminated array of C strings, for `body`.
    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies + [nil])
    }

    /// Whether the program is still running.
    var isRunning: Bool {
        state.withLock { ended(&$0.ended) == nil }
    }

    /// What `body` returns, run while the program is not reaped, so that its process id names it
    /// (``stop()`` reaps it only once `body` is done); nil once it has been reaped, when the id may
    /// be anyone's.
    func unlessReaped<Result>(_ body: (pid_t) -> Result) -> Result? {
        state.withLock { $0.reaped ? nil : body(pid) }
    }

    /// How the program ended, for messages: `exited with status 1`, `was killed by signal 9`.
    var ending: String {
        guard let status = state.withLock({ ended(&$0.ended) }) else { return "is running" }
        return status.code == CLD_EXITED ? "exited with status \(status.value)" : "was killed by signal \(status.value)"
    }

    /// How the program ended (`si_code` and `si_status`), once it did, kept in `status`. It is left
    /// unreaped until ``stop()``, so that its process id, which names its group, is nobody else's
    /// until then.
    private func ended(_ status: inout (code: Int32, value: Int32)?, blocking: Bool = false) -> (code: Int32, value: Int32)? {
        if status == nil {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG)) == 0,
                info._sifields._sigchld.si_pid == pid
            {
                status = (info.si_code, info._sifields._sigchld.si_status)
            }
        }
        return status
    }

    /// Ends the program and its process group: SIGTERM, SIGKILL to whatever is left of the group
    /// after ``gracePeriod`` (or once the program ended), then reaps it.
    func stop() {
        Self.stop([self])
    }

    /// Ends `processes`, their groups and their descendants together: SIGTERM to each group, to
    /// their descendants and to this program's adopted orphans (``PluginDescendants``), one
    /// ``gracePeriod`` for all of them (not one each), then SIGKILL to whatever is left of them,
    /// and reaping. Safe from several threads at once: whoever comes second returns once the
    /// groups are ended.
    static func stop(_ processes: [PluginProcess]) {
        // A reaped program's id may be anyone's now.
        let roots = Set(processes.filter { process in !process.state.withLock { $0.reaped } }.map(\.pid))
        // The descendants first: a program that ends on SIGTERM at once lets go of them.
        let strays = PluginDescendants.askToExit(descendantsOf: roots)
        let waits = processes.compactMap { $0.askToExit() }
        let deadline =
            DispatchTime.now() + Double(gracePeriod.components.seconds) + Double(gracePeriod.components.attoseconds) * 1e-18
        for exited in waits { _ = exited.wait(timeout: deadline) }
        // The descendants (those found first, and those the programs, unreaped, still hold); then
        // what ending the groups left to this program, when it adopts orphans.
        PluginDescendants.kill(descendantsOf: roots, known: strays)
        for process in processes { process.endGroup() }
        PluginDescendants.kill(descendantsOf: [])
    }

    /// Sends SIGTERM to the group of a program still running and not yet ended, and returns what
    /// is signalled when it exits (a thread waits for that, leaving it unreaped); nil otherwise.
    private func askToExit() -> DispatchSemaphore? {
        state.withLock { state in
            guard !state.reaped, ended(&state.ended) == nil else { return nil }
            kill(-pid, SIGTERM)
            let exited = DispatchSemaphore(value: 0)
            let pid = pid
            Thread {
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
                exited.signal()
            }.start()
            return exited
        }
    }

    /// SIGKILL to whatever is left of the group, then reaps the program, once.
    private func endGroup() {
        state.withLock { state in
            guard !state.reaped else { return }
            state.reaped = true
            // The program too, should it have left its group: the wait below must end.
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = ended(&state.ended, blocking: true)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
            PluginDescendants.reaped(pid)
        }
    }

    deinit {
        stop()
    }
}
