import CProcess
import Glibc

/// Keeps a started plugin's program on the CPU of the thread that calls it (docs/remote-plugins.md,
/// "Where the program runs"). The program is its caller's strict ping-pong partner: while one
/// works, the other waits. Woken on another CPU, every call pays a wake-up across CPUs (on a
/// 2-core machine about two and a half times the round trip of the two on one CPU); so before a call, the
/// program, asleep waiting for it, is moved to the caller's CPU when that changed. The caller is
/// not pinned: when its CPU is busy it moves, and the program follows at the next call. But when
/// the system wakes the caller on another CPU for the answer (it did, when the caller comes back
/// from a call elsewhere), the pair is split on every call; then the next ``heldCalls`` calls hold
/// the caller on its CPU until the answer comes, and give it back its CPUs after (unless someone
/// changed them meanwhile: what they chose stays). Only a CPU the
/// program was started with is used (the starting thread's, which it inherited), so what the user
/// allowed is never widened; if the system refuses, calls go on wherever the program runs, and it
/// is not asked again.
struct PluginPlacement {
    /// Lets a thread (a process id: its main thread) run on one CPU alone: 0, or an errno value.
    typealias Mover = (pid_t, Int32) -> Int32

    /// How many calls hold their caller on its CPU once a call came back on another one.
    static let heldCalls = 64

    private let pid: pid_t
    private let allowed: cpu_set_t?
    private let move: Mover
    /// The CPU the program was last moved to, or -1.
    private var placedOn: Int32 = -1
    /// Whether the system refused a move.
    private var refused = false
    /// How many more calls hold their caller on its CPU.
    private var holdsLeft = 0

    /// Places `pid`'s program, started with the CPUs `allowed` (nil: unknown, it is never moved),
    /// with `move`.
    init(pid: pid_t, startedWith allowed: cpu_set_t?, move: @escaping Mover = rehearse_place_on_cpu) {
        self.pid = pid
        self.allowed = allowed
        self.move = move
    }

    /// The CPUs the calling thread may run on: those a program it starts inherits (nil if the
    /// system does not say).
    static func callingThreadCPUs() -> cpu_set_t? {
        var cpus = cpu_set_t()
        return rehearse_calling_thread_cpus(&cpus) == 0 ? cpus : nil
    }

    /// Makes `call` (sends it and waits for the answer) with the program on the calling thread's
    /// CPU, the caller held there until the answer comes when calls were split lately.
    mutating func call<Answer, Failure: Error>(_ call: () throws(Failure) -> Answer) throws(Failure) -> Answer {
        let cpu = rehearse_current_cpu()
        follow(to: cpu)
        guard placedOn == cpu else { return try call() }
        if holdsLeft > 0, var own = Self.callingThreadCPUs(), rehearse_place_on_cpu(0, cpu) == 0 {
            holdsLeft -= 1
            defer { if Self.callingThreadRunsOnlyOn(cpu) { _ = rehearse_set_calling_thread_cpus(&own) } }
            return try call()
        }
        defer { if rehearse_current_cpu() != cpu { holdsLeft = Self.heldCalls } }
        return try call()
    }

    /// Whether the calling thread may run on `cpu` alone, as a held call left it: a thread whose
    /// CPUs someone changed during the call (`taskset -a -p`) keeps what they chose.
    private static func callingThreadRunsOnlyOn(_ cpu: Int32) -> Bool {
        guard var now = callingThreadCPUs() else { return false }
        return rehearse_cpus_are_only(&now, cpu) != 0
    }

    /// Moves the program to `cpu`, the calling thread's, unless it is there already, the program
    /// was not started with that CPU, or the system refused before.
    private mutating func follow(to cpu: Int32) {
        guard cpu != placedOn, !refused, var allowed, rehearse_cpus_hold(&allowed, cpu) != 0 else { return }
        if move(pid, cpu) == 0 {
            placedOn = cpu
        } else {
            refused = true
        }
    }
}
