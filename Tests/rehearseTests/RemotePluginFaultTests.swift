import Foundation
import IntegrationTestSupport
import Testing

/// Issue 28: a remote plugin that misbehaves is isolated as `plugin.failed` with the reason, as a
/// throwing Swift plugin is, and the run goes on: the other plugin of the file keeps answering.
/// The plugins are `fault_plugin.py`, a real program on a real peer-to-peer connection.
@Suite struct RemotePluginFaultTests {
    static let faultPlugin = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/fault_plugin.py")
        .path

    /// A run of two taps with the plugin `faulty` in `mode` (deadline 0.5 s) beside a well-behaved
    /// one; returns the result and the trace's lines.
    static func run(_ mode: String, steps: String) throws -> (result: CommandResult, trace: [String]) {
        let file = try Rehearse.scenario(
            """
            name: a plugin that misbehaves (\(mode))
            scene: paper-login
            plugins:
              - {id: faulty, command: [python3, \(faultPlugin), \(mode)], deadline: 0.5}
              - {id: steady, command: [python3, \(faultPlugin), well]}
            steps:
              - tap: {x: 160, y: 200}
            \(steps)
            """)
        let trace = file.deletingLastPathComponent().appendingPathComponent("trace.jsonl")
        let result = try Rehearse.runWithin(["run", file.path, "--trace", trace.path])
        let lines = (try? String(contentsOf: trace, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        return (result, lines)
    }

    @Test(arguments: [
        ("slow", "no answer within 0.5 s to Deliver(tap)"),
        ("silent", "no answer within 0.5 s to Deliver(tap)"),
        ("garbage", "its answer to Deliver(tap) is wrong: its signature is 's', not 'a(sa{sv})a{sv}'"),
        ("wrong-types", "its answer to Deliver(tap) is wrong: effect 1 (set): "),
        ("too-many", "more than 1024 effects (the limit)"),
        ("huge", "the plugin's connection closed during Deliver(tap)"),
        ("disconnect", "the plugin's connection closed during Deliver(tap)"),
        ("error", "it answered Deliver(tap) with org.example.Broken: it broke"),
        // It floods the host with calls and reads no answer: the host's answers to them must not block it.
        ("flood", "no answer within 0.5 s to Deliver(tap)"),
        // It emits what it hears, or wakes itself after 0 s, forever: time never moves.
        ("loop", "called more than 10000 times at 0 s without time moving"),
        ("wake-loop", "called more than 10000 times at 0 s without time moving"),
    ])
    func aFaultIsolatesThePluginAndTheRunGoesOn(mode: String, reason: String) throws {
        let (result, trace) = try Self.run(
            mode,
            steps: """
                  - wait: 0.1
                  - expect-event: {name: plugin.failed, fields: {plugin: faulty}}
                  - tap: {x: 160, y: 220}
                  - expect: {steady.count: 2}
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let failure = try #require(trace.first { $0.contains(#""name":"plugin.failed""#) })
        #expect(failure.contains(reason), "\(failure)")
        // After its failure only the steady plugin answers: one `fault.seen` for the second tap, not two.
        let after = trace.drop { $0 != failure }.dropFirst()
        #expect(after.filter { $0.contains(#""name":"fault.seen""#) && $0.contains(#""count":2"#) }.count == 1, "\(after)")
    }

    /// Issue 37: a built-in event a remote plugin emits is held to the limits an injected one is:
    /// a keyboard 1e308 points tall animating for 1e300 s fails the plugin and is never delivered.
    @Test func aBuiltInEventPastItsLimitsFailsThePlugin() throws {
        let (result, trace) = try Self.run(
            "tall-keyboard",
            steps: """
                  - expect-event: {name: plugin.failed, fields: {plugin: faulty}}
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let failure = try #require(trace.first { $0.contains(#""name":"plugin.failed""#) })
        #expect(
            failure.contains(
                "effect 1 (emit): event 'keyboard.willShow': field 'frame' each number must be at most 10000 points "
                    + #"from 0, found 0, 352, 320, 1e+308""#), "\(failure)")
        #expect(!trace.contains { $0.contains(#""name":"keyboard.willShow""#) }, "\(trace)")
    }

    @Test func aSecondRegistrationIsRefusedAndThePluginGoesOn() throws {
        let (result, _) = try Self.run(
            "twice",
            steps: """
                  - tap: {x: 160, y: 220}
                  - expect: {faulty.count: 2, faulty.second: org.rehearse.Error.AlreadyRegistered}
                  - expect-no-event: plugin.failed
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
    }

    /// A plugin that floods the host with calls before it registers, reading no answer, registers
    /// all the same: the host answers what it can without waiting for the plugin to read.
    @Test func callsBeforeTheRegistrationReadingNoAnswerDoNotBlockTheHost() throws {
        let (result, _) = try Self.run(
            "flood-early",
            steps: """
                  - tap: {x: 160, y: 220}
                  - expect: {faulty.count: 2, steady.count: 2}
                  - expect-no-event: plugin.failed
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
    }

    /// A plugin's child that keeps the connection and ignores SIGTERM ends with the run (`fork`:
    /// the program runs in its own process group, and the whole group is ended), and so does one
    /// that left the group and the session and was orphaned (`escape`: `rehearse` is the subreaper
    /// of its plugins' descendants and ends them all). The child is gone when `rehearse run`
    /// returns; the escaped one outlived it before.
    @Test(arguments: [("fork", "child.pid"), ("escape", "escaped.pid")])
    func aChildThePluginLeftBehindEndsWithTheRun(mode: String, pidFile: String) throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that leaves a child behind
            plugins:
              - {id: faulty, command: [python3, \(Self.faultPlugin), \(mode)]}
            steps:
              - tap: {x: 160, y: 200}
              - expect: {faulty.count: 1}
            """)
        let result = try Rehearse.runWithin(["run", file.path])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let text = try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent(pidFile), encoding: .utf8)
        let child = try #require(pid_t(text))
        let survived = Self.isRunning(child)
        if survived { kill(child, SIGKILL) }
        #expect(!survived, "the plugin's child \(child) outlived the run")
    }

    /// A plugin that drops a file, a folder and links to its own files into the private folder of
    /// its socket cannot keep the folder: it goes with everything in it, and the links are removed
    /// as links (what they point to stays). Only the socket and an empty folder went before.
    @Test func whatAPluginDropsInItsPrivateFolderGoesWithIt() throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that drops files next to its socket
            plugins:
              - {id: faulty, command: [python3, \(Self.faultPlugin), litter]}
            steps:
              - tap: {x: 160, y: 200}
              - expect: {faulty.count: 1}
            """)
        let result = try Rehearse.runWithin(["run", file.path])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let folder = file.deletingLastPathComponent()
        let privateFolder = try String(contentsOf: folder.appendingPathComponent("private-folder"), encoding: .utf8)
        let left = FileManager.default.fileExists(atPath: privateFolder)
        if left { try? FileManager.default.removeItem(atPath: privateFolder) }
        #expect(!left, "\(privateFolder) is left")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("outside.txt").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("outside/kept").path))
    }

    /// SIGTERM to `rehearse run` while a plugin that ignores it has not connected yet ends the
    /// plugin and removes its private folder before rehearse exits (143); it left both before.
    @Test func aSignalToRehearseEndsItsPluginsAndRemovesTheirFolders() throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that never connects
            plugins:
              - {id: sleepy, command: [sh, -c, "trap '' TERM INT; echo $$ > started.pid; echo $REHEARSE_PLUGIN_ADDRESS > address; sleep 40"]}
            steps:
              - wait: 1
            """)
        let folder = file.deletingLastPathComponent()
        let process = Process()
        process.executableURL = Rehearse.productsFolder.appendingPathComponent("rehearse")
        process.arguments = ["run", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let started = folder.appendingPathComponent("started.pid")
        let address = folder.appendingPathComponent("address")
        let deadline = ContinuousClock.now + .seconds(5)
        while !FileManager.default.fileExists(atPath: address.path), ContinuousClock.now < deadline { usleep(20_000) }
        usleep(100_000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let plugin = try #require(
            pid_t(try String(contentsOf: started, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let socket = try String(contentsOf: address, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "unix:path=", with: "")
        let survived = Self.isRunning(plugin)
        if survived { kill(-plugin, SIGKILL) }
        #expect(!survived, "the plugin \(plugin) outlived rehearse")
        let privateFolder = URL(fileURLWithPath: socket).deletingLastPathComponent().path
        #expect(!FileManager.default.fileExists(atPath: privateFolder), "\(privateFolder) is left")
        try? FileManager.default.removeItem(atPath: privateFolder)
    }

    /// Whether `pid` is a process that has not ended (a zombie nobody reaps has).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z"
    }

    @Test func aPluginThatRegistersUnderAnotherIdIsASetUpError() throws {
        let (result, _) = try Self.run("wrong-id", steps: "")
        #expect(result.status == 2)
        #expect(result.output.contains("it registered as 'someone-else', but the scenario calls it 'faulty'"), "\(result.output)")
    }

    @Test func aProgramThatCannotStartIsASetUpErrorAtItsId() throws {
        let file = try Rehearse.scenario(
            """
            name: no such program
            plugins:
              - {id: ghost, command: [no-such-program-here]}
            steps:
              - wait: 1
            """)
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 2)
        #expect(
            result.output.contains(
                "\(file.path):3:10: error: plugin 'ghost' ended before it connected (the program exited with status 127)"),
            "\(result.output)")
    }

    /// A `directory:` that is not a folder (missing, a file, a FIFO, a link in a loop) is said as
    /// such, at the plugin's id; it used to be "ended before it connected (the program exited with
    /// status 125)", `env`'s own status, which named neither the folder nor what was wrong. A FIFO
    /// is never opened, so it cannot hold the run.
    @Test(arguments: [
        ("missing", "No such file or directory"), ("file", "a file"),
        ("fifo", "a FIFO, device or socket"), ("loop", "Too many levels of symbolic links"),
    ])
    func aDirectoryThatIsNotAFolderIsSaidAsSuch(name: String, reason: String) throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin run in what is not a folder
            plugins:
              - {id: ghost, command: [python3, \(Self.faultPlugin), well], directory: \(name)}
            steps:
              - wait: 1
            """)
        let folder = file.deletingLastPathComponent()
        try Data("a file".utf8).write(to: folder.appending(path: "file"))
        #expect(mkfifo(folder.appending(path: "fifo").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "loop").path, withDestinationPath: "loop")
        let result = try Rehearse.runWithin(["run", file.path])
        #expect(result.status == 2)
        let path = folder.appending(path: name).standardizedFileURL.path
        #expect(
            result.output.contains(
                "\(file.path):3:10: error: plugin 'ghost' cannot start: its directory \(path) is not a folder (\(reason))"),
            "\(result.output)")
    }

    /// `env` starts the program: a first word with `=` would set a variable and run the next word.
    @Test func aProgramNamedWithAnEqualsSignIsRefusedBeforeAnythingStarts() throws {
        let file = try Rehearse.scenario(
            """
            name: a variable for a program
            plugins:
              - {id: sneaky, command: [FOO=bar, python3, \(Self.faultPlugin), well]}
            steps: []
            """)
        let result = try Rehearse.run(["validate", file.path])
        #expect(result.status == 2)
        #expect(result.output.contains("\(file.path):3:28: error: the program's name cannot contain '='"), "\(result.output)")
    }
}
