import CProcess
import Foundation
import RehearseCore
import RehearseScenario
import Synchronization
import Testing

@testable import RehearsePluginHost

/// A started plugin's program follows the CPU of the thread that calls it (`PluginPlacement`),
/// within the CPUs it was started with; a caller the system woke on another CPU is held on its
/// CPU for the next calls, and given back its CPUs after each; the program answers whether or not
/// it can be moved. Each test pins a thread of its own, which ends with it.
@Suite struct PluginPlacementTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("clients/python").path

    /// A plugin that counts the taps delivered to it.
    static let tapCounter = """
        import sys
        sys.path.append(\(String(reflecting: clients)))
        from rehearse.plugin import Plugin
        plugin = Plugin("placed", summary="counts taps")
        @plugin.on_install
        def start(config, state):
            state["taps"] = 0
        @plugin.on("tap")
        def tap(event, state, config):
            state["taps"] += 1
        plugin.run()

        """

    /// A plugin that says, in `seen`, which CPUs its caller (the thread `caller`) may run on while
    /// it answers each tap, and moves the caller to the CPU `moveTo` at the first tap: the caller
    /// comes back from that call on another CPU, as when the system splits the pair.
    static let callerWatcher = """
        import os
        import sys
        sys.path.append(\(String(reflecting: clients)))
        from rehearse.plugin import Plugin
        plugin = Plugin("placed", summary="watches its caller", configuration={"caller": 0, "moveTo": 0})
        @plugin.on_install
        def start(config, state):
            state["seen"] = []
        @plugin.on("tap")
        def tap(event, state, config):
            state["seen"].append(len(os.sched_getaffinity(config["caller"])))
            if len(state["seen"]) == 1:
                os.sched_setaffinity(config["caller"], {config["moveTo"]})
        plugin.run()

        """

    /// The watcher above that also, during the second tap (a held call), lets its caller run only
    /// on the one of `first` and `second` it is not held on, as a user's `taskset -a -p` would,
    /// and says which in `narrowedTo`.
    static let callerNarrower = """
        import os
        import sys
        sys.path.append(\(String(reflecting: clients)))
        from rehearse.plugin import Plugin
        plugin = Plugin("placed", summary="narrows its caller", configuration={"caller": 0, "first": 0, "second": 0})
        @plugin.on_install
        def start(config, state):
            state["seen"] = []
        @plugin.on("tap")
        def tap(event, state, config):
            held = os.sched_getaffinity(config["caller"])
            state["seen"].append(len(held))
            if len(state["seen"]) == 1:
                os.sched_setaffinity(config["caller"], {config["second"]})
            elif len(state["seen"]) == 2:
                state["narrowedTo"] = min({config["first"], config["second"]} - held)
                os.sched_setaffinity(config["caller"], {state["narrowedTo"]})
        plugin.run()

        """

    private struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Two CPUs this thread may run on, the first and the last.
    private static func twoCPUs() throws -> (Int32, Int32) {
        var allowed = try #require(PluginPlacement.callingThreadCPUs())
        let cpus = (0..<Int32(CPU_SETSIZE)).filter { rehearse_cpus_hold(&allowed, $0) != 0 }
        try #require(cpus.count >= 2, "this test needs two CPUs; it may use \(cpus)")
        return (cpus[0], cpus[cpus.count - 1])
    }

    /// Lets the calling thread run on `cpu` alone.
    private static func pin(to cpu: Int32) throws {
        let error = rehearse_place_on_cpu(0, cpu)
        guard error == 0 else { throw Refusal(description: "cannot pin to CPU \(cpu): \(String(cString: strerror(error)))") }
    }

    /// Runs `body` on a thread of its own and returns what it returned.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// The `Cpus_allowed_list` of a thread (`self`: the calling one; a process id: its main
    /// thread), as /proc writes it (`1`, `0-3`).
    private static func cpus(of thread: String) -> String {
        let status = (try? String(contentsOfFile: "/proc/\(thread)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) } ?? "?"
    }

    /// The process whose command line holds `path`.
    private static func process(running path: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.first { pid in
            let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: line, as: UTF8.self).contains(path)
        }
    }

    /// On a thread of its own, pinned to `startCPU` first if given, starts `script`, installs it
    /// with `configuration` into a simulation and gives `body` the simulation and the program's
    /// process id; returns the plugin's state after.
    private static func withPlugin(
        _ script: String, startingOn startCPU: Int32? = nil, configuration: @escaping @Sendable () -> Fields = { [:] },
        _ body: @escaping @Sendable (Simulation, pid_t) throws -> Void
    ) throws -> Fields? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("placement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("placed.py")
        try Data(script.utf8).write(to: file)
        return try onThread {
            let host = CommandPluginHost()
            defer { host.stopAll() }
            if let startCPU { try pin(to: startCPU) }
            let plugin = try host.start(PluginCommand(id: "placed", arguments: ["python3", file.path], directory: folder.path))
            let pid = try #require(process(running: file.path))
            let simulation = Simulation()
            try simulation.install(plugin.configured(configuration()))
            try body(simulation, pid)
            return simulation.plugin("placed")?.state
        }
    }

    /// Injects `times` taps, each delivered to the plugin.
    private static func tap(_ simulation: Simulation, times: Int = 3) throws {
        for _ in 0..<times { try simulation.inject(.tap(Tap(point: Point(x: 10, y: 10)))) }
    }

    /// Called from a thread pinned to one CPU, then to another, the program runs on that CPU
    /// alone each time; it was started with both.
    @Test func aStartedPluginRunsOnTheCPUOfItsCaller() throws {
        let (first, second) = try Self.twoCPUs()
        let placements = Mutex<[String]>([])
        let state = try Self.withPlugin(Self.tapCounter) { simulation, pid in
            for cpu in [second, first] {
                try Self.pin(to: cpu)
                try Self.tap(simulation)
                placements.withLock { $0.append(Self.cpus(of: "\(pid)")) }
            }
        }
        #expect(placements.withLock { $0 } == ["\(second)", "\(first)"])
        #expect(state == ["taps": .int(6)])
    }

    /// A program started on one CPU is never moved to another, whatever its caller's CPU, and
    /// answers every call.
    @Test func aPluginStaysWithinTheCPUsItWasStartedWith() throws {
        let (first, second) = try Self.twoCPUs()
        let placements = Mutex<[String]>([])
        let state = try Self.withPlugin(Self.tapCounter, startingOn: first) { simulation, pid in
            for cpu in [second, first, second] {
                try Self.pin(to: cpu)
                try Self.tap(simulation)
                placements.withLock { $0.append(Self.cpus(of: "\(pid)")) }
            }
        }
        #expect(placements.withLock { $0 } == ["\(first)", "\(first)", "\(first)"])
        #expect(state == ["taps": .int(9)])
    }

    /// A caller that came back from a call on another CPU is held on its CPU while the program
    /// answers the next calls (the program sees it may run on one CPU), and may run on all its
    /// CPUs again after each.
    @Test func aCallerWokenElsewhereIsHeldForTheNextCallsOnly() throws {
        let (first, second) = try Self.twoCPUs()
        let all = try #require(PluginPlacement.callingThreadCPUs())
        let after = Mutex<[String]>([])
        let state = try Self.withPlugin(
            Self.callerWatcher,
            configuration: {
                let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                return ["caller": .int(Int64(thread.split(separator: "/").last ?? "") ?? 0), "moveTo": .int(Int64(second))]
            }
        ) { simulation, _ in
            let before = Self.cpus(of: "thread-self")
            after.withLock { $0.append(before) }
            try Self.pin(to: first)
            try Self.tap(simulation, times: 1)
            var cpus = all
            #expect(rehearse_set_calling_thread_cpus(&cpus) == 0)
            after.withLock { $0.append(Self.cpus(of: "thread-self")) }
            try Self.tap(simulation, times: 2)
            after.withLock { $0.append(Self.cpus(of: "thread-self")) }
        }
        // The first tap's caller was pinned by this test; the next two were held.
        #expect(state?["seen"] == .array([.int(1), .int(1), .int(1)]))
        let cpus = after.withLock { $0 }
        #expect(cpus.count == 3 && Set(cpus).count == 1, "the caller's CPUs before the calls, then after each: \(cpus)")
    }

    /// CPUs someone gives the caller while a held call waits are kept: the placement gives back
    /// the caller's own CPUs only when it still runs on the one it was held on. The attack on
    /// this change narrowed a running `rehearse` with `taskset -a -p` during a held call, and
    /// the caller went on running on the CPU taken away.
    @Test func whatSomeoneGivesTheCallerDuringAHeldCallStays() throws {
        let (first, second) = try Self.twoCPUs()
        let all = try #require(PluginPlacement.callingThreadCPUs())
        let after = Mutex<String>("")
        let state = try Self.withPlugin(
            Self.callerNarrower,
            configuration: {
                let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                return [
                    "caller": .int(Int64(thread.split(separator: "/").last ?? "") ?? 0),
                    "first": .int(Int64(first)), "second": .int(Int64(second)),
                ]
            }
        ) { simulation, _ in
            try Self.pin(to: first)
            try Self.tap(simulation, times: 1)
            var cpus = all
            #expect(rehearse_set_calling_thread_cpus(&cpus) == 0)
            try Self.tap(simulation, times: 2)
            after.withLock { $0 = Self.cpus(of: "thread-self") }
        }
        #expect(state?["seen"] == .array([.int(1), .int(1), .int(1)]))
        let narrowedTo = try #require(state?["narrowedTo"])
        #expect(Int64(after.withLock { $0 }).map(FieldValue.int) == narrowedTo, "the caller may run on \(after.withLock { $0 })")
    }

    /// When the system refuses to move the program, the placement asks once, not at every call,
    /// nor again when its caller's CPU changes; the calls are made all the same.
    @Test func aRefusedMoveIsNotAskedAgain() throws {
        let (first, second) = try Self.twoCPUs()
        let (asked, calls) = try Self.onThread {
            let asked = Mutex<[Int32]>([])
            var placement = PluginPlacement(pid: getpid(), startedWith: PluginPlacement.callingThreadCPUs()) { _, cpu in
                asked.withLock { $0.append(cpu) }
                return EPERM
            }
            var calls = 0
            for cpu in [first, first, second, first, second] {
                try Self.pin(to: cpu)
                placement.call { calls += 1 }
            }
            return (asked.withLock { $0 }, calls)
        }
        #expect(asked == [first])
        #expect(calls == 5)
    }
}
