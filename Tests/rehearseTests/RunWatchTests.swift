import Foundation
import IntegrationTestSupport
import Testing

/// A `rehearse run --watch` running, whose output is read as it comes.
final class WatchingRun {
    let process = Process()
    private let output = Pipe()
    private(set) var text = ""

    init(_ arguments: [String]) throws {
        process.executableURL = Rehearse.productsFolder.appendingPathComponent("rehearse")
        process.arguments = ["run", "--watch"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// Reads until the output holds `expected` after `offset` characters; fails after `seconds`.
    /// Returns the end of the match.
    @discardableResult
    func wait(for expected: String, after offset: String.Index? = nil, seconds: Double) -> String.Index? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let range = text.range(of: expected, range: (offset ?? text.startIndex)..<text.endIndex) {
                return range.upperBound
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&request, 1, max(milliseconds, 1)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }  // it ended
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    /// Sends SIGINT and waits for the end; its exit status, or nil if it did not end within
    /// `seconds`.
    func interrupt(seconds: Double) -> Int32? {
        process.interrupt()
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// `run --watch` (issue 36), the real binary on real folders: each test waits for the lines it
/// expects (a debug build's first run takes about a second; 60 s bounds it, 30 s each re-run).
@Suite struct RunWatchTests {
    /// Saves `text` as an editor does: into a temporary file, renamed over `file`.
    private func save(_ text: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).swp")
        try Data(text.utf8).write(to: temporary)
        _ = rename(temporary.path, file.path)
    }

    @Test func runsAgainTheFileSavedAndANewOneAndEndsOnSIGINTWithZero() throws {
        let folder = try scenarioFolder(["a.yaml": boxScenario("first"), "sub/b.yaml": boxScenario("second")])
        let watching = try WatchingRun([folder.path])
        var mark = watching.wait(for: "run 1: 2 file(s): scenarios: 2 passed, 0 failed\n", seconds: 60)
        #expect(mark != nil, "\(watching.text)")
        mark = watching.wait(for: "Ctrl-C to stop\n", after: mark, seconds: 30)

        // Saved through a rename, now failing: only that file runs again, its failure in full.
        try save(boxScenario("first", x: 3), to: folder.appendingPathComponent("a.yaml"))
        mark = watching.wait(for: "run 2: 1 file(s): scenarios: 0 passed, 1 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        #expect(watching.text.contains("FAIL \(folder.path)/a.yaml"))
        #expect(watching.text.contains("expected: 3\n"))
        #expect(!watching.text.contains("b.yaml"))  // passed files are not listed

        // A new file in a watched folder, and one in a new folder.
        try save(boxScenario("third"), to: folder.appendingPathComponent("sub/c.yaml"))
        mark = watching.wait(for: "run 3: 1 file(s): scenarios: 1 passed, 0 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("new"), withIntermediateDirectories: true)
        try save(boxScenario("fourth", x: 1), to: folder.appendingPathComponent("new/d.yaml"))
        mark = watching.wait(for: "1 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        #expect(watching.text.contains("FAIL \(folder.path)/new/d.yaml"))

        #expect(watching.interrupt(seconds: 10) == 0)
    }

    @Test func aChangedGoldenPictureRunsItsFileAgain() throws {
        let folder = try scenarioFolder([
            "form.yaml": boxScenario("form") + "\n  - expect-picture: start\n", "other.yaml": boxScenario("other"),
        ])
        let recorded = try Rehearse.run(["run", "--update-pictures", folder.appendingPathComponent("form.yaml").path])
        #expect(recorded.status == 0, "\(recorded.output)")
        // The file is named, not the folder: its folder and its pictures are watched all the same.
        let watching = try WatchingRun([
            folder.appendingPathComponent("form.yaml").path, folder.appendingPathComponent("other.yaml").path,
        ])
        var mark = watching.wait(for: "Ctrl-C to stop\n", seconds: 60)
        #expect(mark != nil, "\(watching.text)")
        let reference = folder.appendingPathComponent("__pictures__/form/start.json")
        let drawing = try String(contentsOf: reference, encoding: .utf8)
        try save(drawing.replacingOccurrences(of: "10", with: "12"), to: reference)
        mark = watching.wait(for: "run 2: 1 file(s): scenarios: 0 passed, 1 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        #expect(watching.text.contains("FAIL \(folder.path)/form.yaml"))
        #expect(watching.interrupt(seconds: 10) == 0)
    }

    /// 10,000 files beside the scenario and a symbolic link looping to its own folder: the watch
    /// starts (one folder watched, the link not followed) and sees a save as quickly as ever.
    @Test func aFolderOfTenThousandFilesAndALinkLoopNeitherHangNorExhaustWatches() throws {
        let folder = try scenarioFolder(["a.yaml": boxScenario("first")])
        for index in 0..<10_000 {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("note-\(index).txt").path, contents: Data())
        }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: ".")
        let watching = try WatchingRun([folder.path])
        var mark = watching.wait(for: "watching 1 folder(s) for changes; Ctrl-C to stop\n", seconds: 60)
        #expect(mark != nil, "\(watching.text)")
        try save(boxScenario("first", x: 2), to: folder.appendingPathComponent("a.yaml"))
        mark = watching.wait(for: "run 2: 1 file(s): scenarios: 0 passed, 1 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        #expect(watching.interrupt(seconds: 10) == 0)
    }

    @Test func moreFoldersThanTheLimitAreRefusedWithTheLimit() throws {
        let folder = try scenarioFolder(["a.yaml": boxScenario("first")])
        for index in 0..<1_000 {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("f\(index)"), withIntermediateDirectories: false)
        }
        let result = try Rehearse.run(["run", "--watch", folder.path])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("--watch: more than 1000 folders to watch (the limit)"))
        #expect(result.output.isEmpty)  // nothing ran
    }
}

/// `run --watch` with a command plugin (`fault_plugin.py fork`, which leaves a child that ignores
/// SIGTERM): each run's programs, and what they leave, end with the run, not when the watch ends.
@Suite struct RunWatchPluginTests {
    @Test func eachRunsPluginProgramsEndWithTheRun() throws {
        let file = try PluginRemainsTests.scenario("fork")
        let watching = try WatchingRun([file.path])
        var mark = watching.wait(for: "run 1: 1 file(s): scenarios: 1 passed, 0 failed\n", seconds: 60)
        #expect(mark != nil, "\(watching.text)")
        let first = try PluginRemainsTests.pid("child.pid", beside: file)
        #expect(!PluginRemainsTests.isRunning(first), "the first run's plugin left \(first) running")
        try FileManager.default.removeItem(at: file.deletingLastPathComponent().appendingPathComponent("child.pid"))
        try Data(try Data(contentsOf: file) + Data("\n".utf8)).write(to: file)
        mark = watching.wait(for: "run 2: 1 file(s): scenarios: 1 passed, 0 failed\n", after: mark, seconds: 30)
        #expect(mark != nil, "\(watching.text)")
        let second = try PluginRemainsTests.pid("child.pid", beside: file)
        #expect(second != first && !PluginRemainsTests.isRunning(second), "the second run's plugin left \(second) running")
        #expect(watching.interrupt(seconds: 10) == 0)
        for pid in [first, second] where PluginRemainsTests.isRunning(pid) { kill(pid, SIGKILL) }
    }
}
