import CProcess
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The descendants of command plugins' programs, those in their process groups or not (a child
/// that called `setsid()`), ended with them. A program that starts no children but its plugin
/// programs (the `rehearse` tool) also adopts their orphans (``adoptOrphans()``): it becomes the
/// subreaper of its descendants, so that a process whose parent ended becomes its child instead
/// of init's, and every child of it that is neither a plugin program nor one it had before it
/// started the first (a background job of the shell that `exec`ed it, and that job's descendants
/// then) is taken for such an orphan and ended whenever plugins are. Orphans that end meanwhile
/// are reaped every ``reapingPeriod``, so that a process that forks and lets its parent exit, over
/// and over, leaves no pile of zombies (each would hold a process id until the run ends).
enum PluginDescendants {
    /// What this program knows of its children.
    private struct Children {
        /// The plugin programs started and not yet reaped, by process id: with ``adoptOrphans()``,
        /// this program's other children are orphans it adopted, unless inherited.
        var programs: Set<pid_t> = []
        /// The processes this program had below it before it started its first plugin program,
        /// and their descendants found since: never taken for orphans. Nil until that start.
        var inherited: Set<Stray>?
    }

    private static let children = Mutex(Children())
    /// Whether this program adopts orphans (``adoptOrphans()``).
    private static let adopting = Atomic<Bool>(false)
    /// How often adopted orphans that have ended are reaped, from the first plugin program on.
    static let reapingPeriod = Duration.milliseconds(100)

    /// Makes this program the subreaper of its descendants (`PR_SET_CHILD_SUBREAPER`) and takes
    /// each of its children that is not a plugin program, nor one it had before its first, for an
    /// orphan to end with the plugins. Returns false, changing nothing, if the system refuses.
    static func adoptOrphans() -> Bool {
        guard rehearse_become_child_subreaper() == 0 else { return false }
        adopting.store(true, ordering: .sequentiallyConsistent)
        return true
    }

    /// Starts a plugin program with `spawn` (which returns its process id), as this program's
    /// child that is not taken for an orphan. Before the first, notes the processes this program
    /// already has below it: they are not the plugins'.
    static func start<Failure: Error>(_ spawn: () throws(Failure) -> pid_t) throws(Failure) -> pid_t {
        try children.withLock { children throws(Failure) in
            if children.inherited == nil {
                let adopting = adopting.load(ordering: .sequentiallyConsistent)
                let table = adopting ? table() : [:]
                children.inherited = Set(
                    descendants(of: [getpid()], in: table).map { Stray(pid: $0.key, started: $0.value.started) })
                if adopting { startReaping() }
            }
            let pid = try spawn()
            children.programs.insert(pid)
            return pid
        }
    }

    /// Forgets a plugin program once it is reaped: its process id may be anyone's now.
    static func reaped(_ pid: pid_t) {
        children.withLock { _ = $0.programs.remove(pid) }
    }

    /// One process as `/proc/PID/stat` shows it.
    private struct Entry {
        let parent: pid_t
        /// Whether it runs: it is no zombie, or only its main thread has ended (`pthread_exit`)
        /// while another runs on, which /proc shows as a zombie too.
        let running: Bool
        /// When it started, in clock ticks after boot: with its id, which process it is.
        let started: UInt64
    }

    /// A process found once, known by its id and start time (its id may be another's once it is
    /// reaped): a descendant that must end even if it is nobody's descendant by then, or one this
    /// program inherited.
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
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // The state, the parent's id, ..., the start time (stat's fields 3, 4, ..., 22).
            guard fields.count > 19, let parent = pid_t(fields[1]), let started = UInt64(fields[19]) else { continue }
            // A zombie whose threads are not all gone lists them beside its own.
            let running =
                fields[0] != "Z" || ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(name)/task"))?.count ?? 0) > 1
            table[pid] = Entry(parent: parent, running: running, started: started)
        }
        return table
    }

    /// The processes below `roots` in `table` (not the roots themselves), and `starts` too.
    private static func descendants(of roots: Set<pid_t>, and starts: [pid_t] = [], in table: [pid_t: Entry]) -> [pid_t: Entry] {
        var children: [pid_t: [pid_t]] = [:]
        for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
        var waiting = roots.flatMap { children[$0] ?? [] } + starts
        var found: [pid_t: Entry] = [:]
        while let pid = waiting.popLast() {
            guard found[pid] == nil, let entry = table[pid] else { continue }
            found[pid] = entry
            waiting += children[pid] ?? []
        }
        return found
    }

    /// Whether `pid`, a child of this program, is an orphan it adopted: no plugin program, and
    /// not inherited (a process id inherited is taken for inherited, whoever it is now).
    private static func isOrphan(_ pid: pid_t, _ children: Children) -> Bool {
        !children.programs.contains(pid) && !(children.inherited ?? []).contains { $0.pid == pid }
    }

    /// The descendants of `roots` (not the roots themselves), of the `known` ones still there and,
    /// when this program adopts orphans, of those it adopted, those included. Notes the inherited
    /// processes' descendants as inherited.
    private static func strays(of roots: Set<pid_t>, known: Set<Stray> = [], children: inout Children) -> [pid_t: Entry] {
        let table = table()
        let stillKnown = known.filter { table[$0.pid]?.started == $0.started }.map(\.pid)
        guard adopting.load(ordering: .sequentiallyConsistent) else { return descendants(of: roots, and: stillKnown, in: table) }
        let stillInherited = (children.inherited ?? []).filter { table[$0.pid]?.started == $0.started }
        let inherited = descendants(of: [], and: stillInherited.map(\.pid), in: table)
        children.inherited = Set(inherited.map { Stray(pid: $0.key, started: $0.value.started) })
        let me = getpid()
        let current = children
        let orphans = table.filter { $0.value.parent == me && isOrphan($0.key, current) }.map(\.key)
        return descendants(of: roots, and: stillKnown + orphans, in: table).filter { inherited[$0.key] == nil }
    }

    /// Sends SIGTERM to the descendants of `roots` and to this program's adopted orphans (when it
    /// adopts them) and theirs, and returns all it found: a descendant of a program that ends on
    /// SIGTERM is nobody's once the program has ended, unless this program adopts orphans, so it
    /// is ended as one of these.
    static func askToExit(descendantsOf roots: Set<pid_t>) -> Set<Stray> {
        children.withLock { children in
            let found = strays(of: roots, children: &children)
            // A zombie among them may be one whose main thread alone ended: the signal reaches the others.
            for pid in found.keys { Glibc.kill(pid, SIGTERM) }
            return Set(found.map { Stray(pid: $0.key, started: $0.value.started) })
        }
    }

    /// SIGKILL to the descendants of `roots`, to the `known` ones and to this program's adopted
    /// orphans (when it adopts them) and theirs, round after round until one finds none that runs
    /// or waits for this program to reap it: a killed process's children become this program's,
    /// and a process that forks and lets its parent exit over and over (each one living
    /// microseconds) leaves one each time. Reaps those that are this program's children without
    /// waiting for any. Gives up after ``PluginProcess/gracePeriod`` on what does not end.
    static func kill(descendantsOf roots: Set<pid_t>, known: Set<Stray> = []) {
        let me = getpid()
        let deadline = ContinuousClock.now + PluginProcess.gracePeriod
        children.withLock { children in
            while true {
                // The orphans at once: the time a scan of /proc takes is many times a hop's life.
                if adopting.load(ordering: .sequentiallyConsistent) {
                    for pid in ownChildren() where isOrphan(pid, children) { Glibc.kill(pid, SIGKILL) }
                }
                let found = strays(of: roots, known: known, children: &children)
                for pid in found.keys { Glibc.kill(pid, SIGKILL) }
                var status: Int32 = 0
                for (pid, entry) in found where entry.parent == me { waitpid(pid, &status, WNOHANG) }
                guard found.values.contains(where: { $0.running || $0.parent == me }), ContinuousClock.now < deadline else {
                    return
                }
                sched_yield()
            }
        }
    }

    /// Reaps, every ``reapingPeriod`` for as long as this program runs, the adopted orphans that
    /// have ended; those that run are left to end with the plugins.
    private static func startReaping() {
        Thread.detachNewThread {
            let period = reapingPeriod.components
            while true {
                usleep(useconds_t(period.seconds * 1_000_000 + period.attoseconds / 1_000_000_000_000))
                children.withLock { children in
                    var status: Int32 = 0
                    for pid in ownChildren() where isOrphan(pid, children) { waitpid(pid, &status, WNOHANG) }
                }
            }
        }
    }

    /// This program's children as its threads' `/proc/self/task/TID/children` list them: read
    /// in microseconds, where a scan of /proc takes milliseconds. None where the system lacks them.
    private static func ownChildren() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).flatMap { thread in
            ((try? String(contentsOfFile: "/proc/self/task/\(thread)/children", encoding: .utf8)) ?? "").split(separator: " ")
                .compactMap { pid_t($0) }
        }
    }
}
