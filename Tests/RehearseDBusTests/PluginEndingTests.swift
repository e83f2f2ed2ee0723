import Foundation
import RehearseScenario
import Testing

@testable import RehearsePluginHost

/// How command plugins' programs are ended (issue 24's attack on them): together, within one
/// grace period, and never started once the programs are being ended for good.
@Suite struct PluginEndingTests {
    /// A program that ignores SIGTERM, as does the child it leaves behind.
    private static let stubborn = ["sh", "-c", "trap '' TERM; (trap '' TERM; exec sleep 100) & exec sleep 100"]

    /// Whether a process of `group` still runs (one that is only waiting to be reaped does not).
    private static func isAlive(_ group: pid_t) -> Bool {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.contains { name in
            // /proc/PID/stat: "pid (comm) state ppid pgrp ...", comm may hold spaces.
            guard Int32(name) != nil, let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
        }
    }

    /// Twelve programs that ignore SIGTERM end in one grace period (1 s), not twelve: the bound
    /// is ten times the expected figure and under the 12 s that ending them one by one took.
    @Test func programsThatIgnoreSIGTERMEndTogetherWithTheirChildren() throws {
        let processes = try (0..<12).map { _ in
            try PluginProcess(command: Self.stubborn, directory: FileManager.default.temporaryDirectory.path, environment: [:])
        }
        let groups = processes.map(\.pid)
        Thread.sleep(forTimeInterval: 0.2)  // the shells set their traps and start their children
        let clock = ContinuousClock()
        let start = clock.now
        PluginProcess.stop(processes)
        let took = clock.now - start
        #expect(took < .seconds(10), "took \(took)")
        #expect(took >= PluginProcess.gracePeriod, "took \(took): the grace period was not given")
        for group in groups { #expect(!Self.isAlive(group), "group \(group) outlived its ending") }
    }

    /// What must name the program by its process id (the placement's move to a CPU) runs only
    /// until the program is reaped: after, the id may be another process's. The attack on the
    /// placement found a program ended on SIGTERM reaped while a simulation thread could still move
    /// it before its next call.
    @Test func nothingNamesAProgramByItsIdOnceItIsReaped() throws {
        let process = try PluginProcess(
            command: ["sleep", "30"], directory: FileManager.default.temporaryDirectory.path, environment: [:])
        #expect(process.unlessReaped { $0 } == process.pid)
        process.stop()
        #expect(process.unlessReaped { $0 } == nil)
    }

    /// A child that left the program's process group and session (`setsid`) while the program
    /// runs ends with it: the program's descendants are ended, not only its group. This test
    /// runner adopts no orphans; the `rehearse` tool does (RemotePluginFaultTests' `escape`).
    @Test func aChildThatLeftTheGroupEndsWithTheProgram() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try PluginProcess(
            command: ["sh", "-c", "setsid sleep 100 & echo $! > escaped.pid; wait"],
            directory: folder.path, environment: [:])
        let file = folder.appendingPathComponent("escaped.pid")
        let deadline = ContinuousClock.now + .seconds(10)
        var escaped: pid_t?
        while escaped == nil, ContinuousClock.now < deadline {
            escaped = (try? String(contentsOf: file, encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if escaped == nil { usleep(10_000) }
        }
        let child = try #require(escaped)
        process.stop()
        let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)
        let survived = stat.map { !$0.contains(") Z ") && $0.contains("(sleep)") } ?? false
        if survived { kill(child, SIGKILL) }
        #expect(!survived, "the child \(child) outlived its program")
    }

    /// Once the programs are being ended before an exit, a run that goes on (another file of
    /// `run --jobs`) cannot start one that nobody would end.
    @Test func nothingStartsOnceTheProgramsAreEndedForGood() {
        let host = CommandPluginHost()
        host.endBeforeExit()
        let command = PluginCommand(id: "late", arguments: Self.stubborn, directory: FileManager.default.temporaryDirectory.path)
        let error = #expect(throws: PluginStartError.self) { try host.start(command) }
        #expect(error?.description == "the program is exiting: plugin 'late' not started")
    }
}
