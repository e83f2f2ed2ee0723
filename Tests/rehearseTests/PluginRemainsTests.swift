import Foundation
import IntegrationTestSupport
import Testing

/// Issue 37's attack on what command plugins' programs leave behind: `rehearse` ends every
/// process a program leaves, whatever it looks like, and nothing that is not a program's; it
/// removes the private folder of the program's socket with bounded work once the program's
/// processes are gone; and a signal while `view` or `serve` sets up ends it at once. The plugins
/// are `fault_plugin.py` (and `hopper.c`), real programs on a real peer-to-peer connection.
@Suite struct PluginRemainsTests {
    /// A file with the plugin `faulty` (`fault_plugin.py` in `mode`, with `arguments`) that taps once.
    static func scenario(_ mode: String, _ arguments: [String] = [], command: String? = nil) throws -> URL {
        let words = command ?? (["python3", RemotePluginFaultTests.faultPlugin, mode] + arguments).joined(separator: ", ")
        return try Rehearse.scenario(
            """
            name: a plugin that leaves something behind (\(mode))
            plugins:
              - {id: faulty, command: [\(words)]}
            steps:
              - tap: {x: 160, y: 200}
              - expect: {faulty.count: 1}
            """)
    }

    /// The process id a plugin wrote to `name` in `file`'s folder.
    static func pid(_ name: String, beside file: URL) throws -> pid_t {
        let text = try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent(name), encoding: .utf8)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Whether `pid` still runs: not a zombie, or a zombie only because its main thread ended
    /// while another thread runs on (its `task` folder lists more than that thread).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" || ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0) > 1
    }

    /// A descendant whose main thread ended while another thread runs on looks like a zombie in
    /// /proc: it is killed all the same, and the run ends (in about 1 s; the bound is 20 s).
    /// (Once, `rehearse` waited for it in `waitpid`, holding the lock SIGTERM's clean-up takes:
    /// the run never ended, not even on SIGTERM.)
    @Test func aDescendantThatLooksEndedIsKilledAndTheRunEnds() throws {
        let file = try Self.scenario("zombie")
        let result = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["-k", "1", "20", Rehearse.productsFolder.appendingPathComponent("rehearse").path, "run", file.path])
        let zombie = try Self.pid("zombie.pid", beside: file)
        let survived = Self.isRunning(zombie)
        if survived { kill(zombie, SIGKILL) }
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(!survived, "the plugin's descendant \(zombie) outlived the run")
    }

    /// A descendant that forks, lets its parent exit and leaves its session, again and again (each
    /// of its processes lives a few microseconds): it ends with the run, in each of twenty runs.
    /// Every hop holds a shared lock on `hop.lock`, so the lock is free once none is left. (Once,
    /// one run in four to six left it hopping.)
    @Test func aDescendantThatHopsFromProcessToProcessEndsWithTheRun() throws {
        let file = try Self.hoppingScenario()
        let lock = file.deletingLastPathComponent().appendingPathComponent("hop.lock").path
        for run in 1...20 {
            let result = try Rehearse.runWithin(["run", file.path])
            #expect(result.status == 0, "run \(run): \(result.output)\(result.errorOutput)")
            let descriptor = open(lock, O_RDONLY)
            try #require(descriptor >= 0, "run \(run): the hopper did not start")
            defer { close(descriptor) }
            // A hop killed last may take a moment to go: 2 s, where a hop left keeps the lock 5 s.
            let deadline = ContinuousClock.now + .seconds(2)
            var free = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            while !free, ContinuousClock.now < deadline {
                usleep(10_000)
                free = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            }
            #expect(free, "run \(run): a hop outlived the run")
            guard free else { break }
            flock(descriptor, LOCK_UN)
        }
    }

    /// A file whose plugin starts `hopper.c` (compiled beside it), which hops for 5 s holding a
    /// shared lock on `hop.lock` beside the file.
    static func hoppingScenario() throws -> URL {
        let file = try Self.scenario(
            "hop", command: "sh, -c, './hopper hop.lock && exec python3 \(RemotePluginFaultTests.faultPlugin) well'")
        let compiled = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "cc", "-O2", "-o", file.deletingLastPathComponent().appendingPathComponent("hopper").path,
                Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/hopper.c").path,
            ])
        try #require(compiled.status == 0, "\(compiled.errorOutput)")
        return file
    }

    /// How many zombies `pid` has among its children.
    static func zombies(of pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).count { name in
            guard pid_t(name) != nil, let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1
            else { return false }
            return fields[0] == "Z" && pid_t(fields[1]) == pid
        }
    }

    /// While `serve` runs on, the processes a hopping descendant leaves (each an orphan `rehearse`
    /// adopts, and a zombie once it has let its child go) are reaped as they end: within 5 s
    /// (50 times the reaping period) of the last hop, none is left. (Once, every hop stayed a
    /// zombie until the plugins ended, each holding a process id: thousands a second.)
    @Test func theProcessesAHoppingDescendantLeavesAreReapedWhileServing() throws {
        let file = try Self.hoppingScenario()
        let folder = file.deletingLastPathComponent()
        let serve = Process()
        serve.executableURL = Rehearse.productsFolder.appendingPathComponent("rehearse")
        serve.arguments = ["serve", "--no-bus", "--listen", "unix:path=\(folder.path)/peer.sock", "--scenario", file.path]
        serve.currentDirectoryURL = folder
        serve.standardOutput = FileHandle.nullDevice
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        defer {
            kill(serve.processIdentifier, SIGTERM)
            serve.waitUntilExit()
        }
        let lock = folder.appendingPathComponent("hop.lock").path
        let started = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: lock), serve.isRunning, ContinuousClock.now < started { usleep(20_000) }
        let descriptor = open(lock, O_RDONLY)
        try #require(descriptor >= 0, "the hopper did not start")
        defer { close(descriptor) }
        // The hopper hops for 5 s; the bound is 30 s.
        let hopped = ContinuousClock.now + .seconds(30)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0, ContinuousClock.now < hopped { usleep(20_000) }
        try #require(serve.isRunning)
        let reaped = ContinuousClock.now + .seconds(5)
        var left = Self.zombies(of: serve.processIdentifier)
        while left > 0, ContinuousClock.now < reaped {
            usleep(20_000)
            left = Self.zombies(of: serve.processIdentifier)
        }
        #expect(left == 0, "\(left) zombies of rehearse serve")
    }

    /// A shell that starts a background job and then becomes `rehearse` (`exec`, as an entry point
    /// does): the job is `rehearse`'s child from the start, not a plugin's, and outlives the run.
    /// (Once, it was taken for an orphan a plugin left and killed.)
    @Test func aChildRehearseHadBeforeItsPluginsIsLeftAlone() throws {
        let file = try Self.scenario("well")
        // The job lets go of every descriptor it inherits: it would hold this test's pipes for its 100 s.
        let job = #"python3 -c "import os, time; os.closerange(3, 65536); time.sleep(100)" </dev/null >/dev/null 2>&1 &"#
        let result = try Rehearse.launch(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", job + #" echo $! > job.pid; exec "$0" run "$1""#,
                Rehearse.productsFolder.appendingPathComponent("rehearse").path, file.path,
            ],
            in: file.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let pid = try Self.pid("job.pid", beside: file)
        let survived = Self.isRunning(pid)
        kill(pid, SIGKILL)
        #expect(survived, "the background job \(pid) was killed")
    }

    /// A plugin that leaves folders nested `depth` deep in the private folder of its socket: at
    /// the limit (`FolderRemoval.maximumDepth`, 64) they go; past it the run ends all the same (in
    /// about 1 s; the bound is 20 s), and says on standard error what it left. (Once, removing
    /// them emptied each folder three times over, for ever: the run never ended.)
    @Test(arguments: [64, 65])
    func foldersNestedInThePrivateFolderGoOrAreReported(depth: Int) throws {
        let file = try Self.scenario("deep", ["\"\(depth)\""])
        let result = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["-k", "1", "20", Rehearse.productsFolder.appendingPathComponent("rehearse").path, "run", file.path])
        let privateFolder = try String(
            contentsOf: file.deletingLastPathComponent().appendingPathComponent("private-folder"), encoding: .utf8)
        let left = FileManager.default.fileExists(atPath: privateFolder)
        try? FileManager.default.removeItem(atPath: privateFolder)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(left == (depth > 64), "\(privateFolder)")
        let report =
            "rehearse: plugin 'faulty' left its private folder \(privateFolder): it holds folders nested more than 64 deep"
        #expect(result.errorOutput.contains(report) == (depth > 64), "\(result.errorOutput)")
    }

    /// A plugin whose descendant keeps making folders in the private folder of its socket: the
    /// folder goes once the plugin's processes are gone. (Once, it was emptied while the
    /// descendant filled it, and left.)
    @Test func aPrivateFolderFilledWhileItIsRemovedGoesOnceThePluginHasEnded() throws {
        let file = try Self.scenario("fill")
        let result = try Rehearse.runWithin(["run", file.path])
        let filler = try Self.pid("filler.pid", beside: file)
        let survived = Self.isRunning(filler)
        if survived { kill(filler, SIGKILL) }
        let privateFolder = try String(
            contentsOf: file.deletingLastPathComponent().appendingPathComponent("private-folder"), encoding: .utf8)
        let left = FileManager.default.fileExists(atPath: privateFolder)
        try? FileManager.default.removeItem(atPath: privateFolder)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(!survived, "the filler \(filler) outlived the run")
        #expect(!left, "\(privateFolder) is left")
    }

    /// SIGTERM while `view` or `serve` waits for a plugin's answer to `Install` (deadline 60 s)
    /// ends the command and the plugin at once (in about 1 s; the bound is 10 s), with status 0 as
    /// after the set-up. (Once, the signal waited for the deadline.)
    @Test(arguments: ["view", "serve"])
    func aSignalWhileSettingUpEndsTheCommandAndItsPlugins(command: String) throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that never answers Install
            plugins:
              - {id: stalled, command: [python3, \(RemotePluginFaultTests.faultPlugin), stall], deadline: 60}
            steps:
              - wait: 1
            """)
        let folder = file.deletingLastPathComponent()
        let process = Process()
        process.executableURL = Rehearse.productsFolder.appendingPathComponent("rehearse")
        process.arguments =
            command == "view"
            ? ["view", "--http", "127.0.0.1:0", file.path]
            : ["serve", "--no-bus", "--listen", "unix:path=\(folder.path)/peer.sock", "--scenario", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stalled = folder.appendingPathComponent("stalled.pid")
        let started = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: stalled.path), process.isRunning, ContinuousClock.now < started {
            usleep(20_000)
        }
        let plugin = try Self.pid("stalled.pid", beside: file)
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        let survived = Self.isRunning(plugin)
        if survived { kill(plugin, SIGKILL) }
        #expect(ended, "rehearse \(command) still ran 10 s after SIGTERM")
        #expect(!ended || process.terminationStatus == 0)
        #expect(!survived, "the plugin \(plugin) outlived rehearse \(command)")
    }
}
