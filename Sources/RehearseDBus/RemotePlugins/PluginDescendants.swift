import CProcess
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The descendants of command plugins' programs, those in their process groups or not (a child
/// that called `setsid()`), ended with them. A program whose only children are its plugin
/// programs (the `rehearse` tool) also adopts their orphans (``adoptOrphans()``): it becomes the
/// subreaper of its descendants, so that a process whose parent ended becomes its child instead
/// of init's, and every child of it that is not a plugin program is taken for such an orphan and
/// ended whenever plugins are (an orphan belongs to no plugin any more).
enum PluginDescendants {
    /// The plugin programs started and not yet reaped, by process id: with ``adoptOrphans()``,
    /// this program's other children are orphans it adopted.
    private static let programs = Mutex<Set<pid_t>>([])
    /// Whether this program adopts orphans (``adoptOrphans()``).
    private static let adopting = Atomic<Bool>(false)

    /// Makes this program the subreaper of its descendants (`PR_SET_CHILD_SUBREAPER`) and takes
    /// each of its children that is not a plugin program for an orphan to end with the plugins.
    /// Returns false, changing nothing, if the system refuses.
    static func adoptOrphans() -> Bool {
        guard rehearse_become_child_subreaper() == 0 else { return false }
        adopting.store(true, ordering: .sequentiallyConsistent)
        return true
    }

    /// Starts a plugin program with `spawn` (which returns its process id), as this program's
    /// child that is not taken for an orphan.
    static func start<Failure: Error>(_ spawn: () throws(Failure) -> pid_t) throws(Failure) -> pid_t {
        try programs.withLock { programs throws(Failure) in
            let pid = try spawn()
            programs.insert(pid)
            return pid
        }
    }

    /// Forgets a plugin program once it is reaped: its process id may be anyone's now.
    static func reaped(_ pid: pid_t) {
        programs.withLock { _ = $0.remove(pid) }
    }

    /// One process as `/proc/PID/stat` shows it.
    private struct Entry {
        let parent: pid_t
        /// Whether it has ended and waits to be reaped (a zombie).
        let ended: Bool
        /// When it started, in clock ticks after boot: with its id, which process it is.
        let started: UInt64
    }

    /// A descendant found once, known by its id and start time (its id may be another's once it
    /// is reaped): one that must end even if it is nobody's descendant by then.
    struct Stray: Hashable {
        let pid: pid_t
        let started: UInt64
    }

    /// Every process of the system, by id.
    private static func table() -> [pid_t: Entry] {
        var table: [pid_t: Entry] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            // "pid (comm) state ppid ...": the command may hold spaces and parentheses.
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // The state, the parent's id, ..., the start time (stat's fields 3, 4, ..., 22).
            guard fields.count > 19, let parent = pid_t(fields[1]), let started = UInt64(fields[19]) else { continue }
            table[pid] = Entry(parent: parent, ended: fields[0] == "Z", started: started)
        }
        return table
    }

    /// The descendants of `roots` (not the roots themselves), of the `known` ones still there and,
    /// when this program adopts orphans, of those it adopted (its children that are not in
    /// `programs`), those included.
    private static func strays(of roots: Set<pid_t>, known: Set<Stray> = [], programs: Set<pid_t>) -> [pid_t: Entry] {
        let table = table()
        var children: [pid_t: [pid_t]] = [:]
        for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
        let orphans = adopting.load(ordering: .sequentiallyConsistent) ? (children[getpid()] ?? []).filter { !programs.contains($0) } : []
        var waiting = roots.flatMap { children[$0] ?? [] } + orphans + known.filter { table[$0.pid]?.started == $0.started }.map(\.pid)
        var found: [pid_t: Entry] = [:]
        while let pid = waiting.popLast() {
            guard found[pid] == nil, let entry = table[pid] else { continue }
            found[pid] = entry
            waiting += children[pid] ?? []
        }
        return found
    }

    /// Sends SIGTERM to the descendants of `roots` and to this program's adopted orphans (when it
    /// adopts them) and theirs, those that still run, and returns all it found: a descendant of a
    /// program that ends on SIGTERM is nobody's once the program has ended, unless this program
    /// adopts orphans, so it is ended as one of these.
    static func askToExit(descendantsOf roots: Set<pid_t>) -> Set<Stray> {
        programs.withLock { programs in
            let found = strays(of: roots, programs: programs)
            for (pid, entry) in found where !entry.ended { Glibc.kill(pid, SIGTERM) }
            return Set(found.map { Stray(pid: $0.key, started: $0.value.started) })
        }
    }

    /// SIGKILL to the descendants of `roots`, to the `known` ones and to this program's adopted
    /// orphans (when it adopts them) and theirs until none is left (a killed process's children
    /// become this program's, so each round finds those the last one left), reaping those that
    /// are this program's children. Gives up after a second on a process that does not end.
    static func kill(descendantsOf roots: Set<pid_t>, known: Set<Stray> = []) {
        let me = getpid(), deadline = ContinuousClock.now + .seconds(1)
        programs.withLock { programs in
            while true {
                let found = strays(of: roots, known: known, programs: programs)
                for (pid, entry) in found where !entry.ended { Glibc.kill(pid, SIGKILL) }
                for (pid, entry) in found where entry.parent == me {
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                }
                guard found.contains(where: { !$0.value.ended }), ContinuousClock.now < deadline else { return }
                sched_yield()
            }
        }
    }
}
