import Foundation
import IntegrationTestSupport
import Testing

/// Scenario files written by an attacker or a careless hand, through the built binary: each gets
/// a clear `file:line:column: error:` and exit 2 (or runs, where it is fine), never a crash, a hang
/// or a file written outside the render folder.
@Suite struct HostileFileTests {
    /// The first line of `rehearse validate` on `text`, and its exit status.
    private func validate(_ text: String) throws -> (status: Int32, message: String) {
        let file = try Rehearse.scenario(text)
        let result = try Rehearse.run(["validate", file.path])
        let message = result.output.split(separator: "\n").first.map(String.init) ?? ""
        return (result.status, message.replacingOccurrences(of: file.path, with: "scenario.yaml"))
    }

    @Test func anAliasBombIsRefusedBeforeItExpands() throws {
        // Nine levels of nine aliases: 9^9 nodes once expanded, from about 500 bytes.
        var lines = ["name: bomb", "plugins:", "  panner:", "    image:", "      a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 {
            lines.append(
                "      a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let (status, message) = try validate((lines + ["steps: []"]).joined(separator: "\n"))
        #expect(status == 2)
        #expect(message.hasPrefix("scenario.yaml:"))
        #expect(message.contains("error: with its aliases expanded the file has more than 1000000 nodes (the limit)"))
        #expect(clock.now - start < .seconds(10))
    }

    @Test func aliasesNestedPastTheDepthLimitAreRefused() throws {
        var lines = ["name: chain", "x:", "  a0: &a0 [x]"]
        for level in 1...70 { lines.append("  a\(level): &a\(level) [*a\(level - 1)]") }
        let (status, message) = try validate((lines + ["steps: []"]).joined(separator: "\n"))
        #expect(status == 2)
        #expect(message.contains("error: with its aliases expanded, nesting is deeper than 64 levels"))
    }

    @Test func motionStreamsHaveASampleLimitAndNoOverflow() throws {
        let overflow = try validate("name: m\nsteps:\n  - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 12400}\n")
        #expect(overflow.status == 2)
        #expect(
            overflow.message == "scenario.yaml:3:53: error: for: 12400 s at 60 Hz is 744000 samples; "
                + "the motion streams of a scenario hold at most 100000 samples")
        let dense = try validate("name: m\nsteps:\n  - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 3000, hz: 1000}\n")
        #expect(dense.status == 2)
        // At the limit a stream runs, and its samples land on whole nanoseconds (no overflow).
        let file = try Rehearse.scenario(
            """
            name: m
            steps:
              - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 1000, hz: 100}
              - expect-event: {name: motion, count: 100000}
            """)
        #expect(try Rehearse.run(["run", file.path]).status == 0)
    }

    @Test func aScenarioRunsAtMostAMillionSimulatedSeconds() throws {
        let (status, message) = try validate("name: long\nsteps:\n  - wait: 1000000\n  - wait: 1\n")
        #expect(status == 2)
        #expect(
            message == "scenario.yaml:4:11: error: this step would take the scenario to 1000001 s; "
                + "a scenario runs at most 1000000 simulated seconds")
    }

    @Test func aSceneDeeperThanTheLimitIsRefusedByEveryCommand() throws {
        var lines = ["name: deep", "scene:", "  nodes:"]
        for index in 0..<1600 {
            lines.append("    - {id: n\(index), kind: view, frame: [0, 0, 10, 10]\(index > 0 ? ", parent: n\(index - 1)" : "")}")
        }
        let file = try Rehearse.scenario((lines + ["steps: [{tap: {x: 1, y: 1}}]"]).joined(separator: "\n"))
        let expected =
            "\(file.path):104:7: error: node 'n100' would be more than 100 levels below the root, the deepest a scene goes"
        for arguments in [["validate", file.path], ["run", file.path], ["render", file.path, "--at", "0"]] {
            let result = try Rehearse.run(arguments)
            #expect(result.status == 2, "\(arguments[0])")
            #expect((result.output + result.errorOutput).contains(expected), "\(arguments[0])")
        }
    }

    @Test func snapshotNamesAreFileNamesNeverPaths() throws {
        for name in ["../../../somewhere/x", "a/b", ".hidden", ""] {
            let (status, message) = try validate("name: s\nsteps:\n  - snapshot: \"\(name)\"\n")
            #expect(status == 2, "\(name)")
            #expect(message.contains("error: snapshot names are file names"), "\(name)")
        }
    }

    @Test func scenariosOfTheSameNameRenderIntoTheirOwnFolders() throws {
        let root = try Rehearse.scenario("name: unused\nsteps: []\n").deletingLastPathComponent()
        for folder in ["auto-scroll", "login-animator"] {
            let directory = root.appendingPathComponent("Scenarios/\(folder)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("name: \(folder)\nsteps:\n  - snapshot: start\n".utf8)
                .write(to: directory.appendingPathComponent("landscape-original.yaml"))
        }
        let result = try Rehearse.run(["run", "--render", "out", "Scenarios"], in: root)
        #expect(result.status == 0, "\(result.output)")
        for folder in ["auto-scroll", "login-animator"] {
            let picture = root.appendingPathComponent("out/Scenarios/\(folder)/landscape-original/snapshot-start.svg")
            #expect(FileManager.default.fileExists(atPath: picture.path), "\(picture.path)")
        }
    }

    @Test func outputsNeverReplaceTheScenarioFile() throws {
        let text = "name: keep me\nsteps: []\n"
        let file = try Rehearse.scenario(text)
        let trace = try Rehearse.run(["run", "--trace", file.path, file.path])
        #expect(trace.status == 2)
        #expect(trace.errorOutput.contains("--trace \(file.path) is a scenario file this run reads"))
        let render = try Rehearse.run(["render", file.path, "--at", "0", "-o", file.path])
        #expect(render.status == 2)
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    /// A file over the size limit is refused from its size, before it is read, named on the command
    /// line or found in a folder; a stream (`/dev/zero`) is read up to the limit only. Each command
    /// runs with 1 GiB of address space, so reading a 2 GiB file (or all of `/dev/zero`) whole fails.
    @Test func largeFilesAreRefusedBeforeTheyAreRead() throws {
        let folder = try Rehearse.scenario("name: fine\nsteps: []\n").deletingLastPathComponent()
        let big = folder.appendingPathComponent("big.yaml")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 2 << 30)  // sparse: no disk used
        try handle.close()
        let limited = "ulimit -v 1048576 && exec \"$0\" \"$@\""
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        let tooLarge = "error: file is 2147483648 bytes; scenario files are limited to 1048576 bytes (1 MiB)"
        let cases = [
            (["validate", big.path], tooLarge), (["run", folder.path], tooLarge),
            (["validate", "/dev/zero"], "/dev/zero:1:1: error: file holds more than 1048576 bytes; scenario files are limited"),
        ]
        for (arguments, expected) in cases {
            let result = try Rehearse.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", limited, rehearse] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.errorOutput)")
            #expect(result.output.contains(expected), "\(arguments): \(result.output)")
        }
    }

    /// A named pipe in a folder of scenarios is not a scenario file: the run (and `run --watch`)
    /// passes it by, even while a program holds it open for writing and never writes (the run
    /// read it and waited for ever; with nobody writing, it read as an empty file).
    @Test func aNamedPipeInAFolderNeverBlocksARun() throws {
        let folder = try Rehearse.scenario("name: fine\nsteps: []\n").deletingLastPathComponent()
        let pipe = folder.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let writer = open(pipe, O_RDWR | O_NONBLOCK)  // a writer that never writes
        #expect(writer >= 0)
        defer { close(writer) }
        let clock = ContinuousClock()
        let start = clock.now
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        let result = try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/timeout"), ["30", rehearse, "run", folder.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 passed") && !result.output.contains("pipe.yaml"), "\(result.output)")
        #expect(clock.now - start < .seconds(30))
    }

    @Test func aByteOrderMarkAndSignedZerosAreRead() throws {
        let file = try Rehearse.scenario("\u{FEFF}name: bom\nsteps:\n  - expect: {time: -0}\n  - expect: {time: +0}\n")
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func pluginDurationsMustBeDurations() throws {
        let huge = try validate("name: d\nplugins:\n  gateway: {authenticator: {latency: 1e300}}\nsteps: []\n")
        #expect(huge.status == 2)
        #expect(
            huge.message == "scenario.yaml:3:38: error: plugin 'gateway': field 'authenticator.latency' "
                + "must be a duration from 0 to 1000000 seconds, found 1e+300")
        let negative = try validate("name: d\nplugins:\n  login-animator: {duration: -1}\nsteps: []\n")
        #expect(negative.status == 2)
        #expect(negative.message.contains("field 'duration' must be a duration from 0 to 1000000 seconds, found -1.0"))
    }

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let file = try Rehearse.scenario("name: \"evil \\e[2J\\e[31m\"\nsteps:\n  - expect: {time: 1}\n  - tap: \"\\e[2Jx\"\n")
        let run = try Rehearse.run(["run", file.path])
        let validate = try Rehearse.run(["validate", file.path])
        for output in [run.output, validate.output] {
            #expect(!output.unicodeScalars.contains("\u{1B}"))
            #expect(output.contains("\\u{1B}[2J"))
        }
    }

    /// Issue 25's attack: paths given to render and explore, and what a service's error says,
    /// reached the terminal raw; and characters that hide themselves (a direction override, a
    /// zero-width space) passed as if they were not there.
    @Test func pathsAndHiddenCharactersNeverReachTheTerminalRaw() throws {
        let file = try Rehearse.scenario("name: \"tricky\"\nsteps:\n  - tap: \"user\\u200Bname\\u202E\"\n")
        #expect(try Rehearse.run(["validate", file.path]).output.contains("user\\u{200B}name\\u{202E}"))
        let folder = file.deletingLastPathComponent()
        let evil = folder.appendingPathComponent("e\u{1B}[31mvil\nx.yaml")
        try "name: ok\nsteps:\n  - wait: 1\n".write(to: evil, atomically: true, encoding: .utf8)
        let picture = folder.appendingPathComponent("p\u{1B}[2Jic.svg")
        let render = try Rehearse.run(["render", evil.path, "--at", "0.5", "-o", picture.path])
        let late = try Rehearse.run(["render", evil.path, "--at", "5"])
        let explore = try Rehearse.run([
            "explore", evil.path, "--runs", "3", "--out", folder.appendingPathComponent("o\u{1B}ut").path,
        ])
        for result in [render, late, explore] {
            let shown = result.output + result.errorOutput
            #expect(!shown.unicodeScalars.contains("\u{1B}"), "\(shown)")
            #expect(shown.contains("\\u{1B}"), "\(shown)")
        }
        #expect(render.output.hasPrefix("wrote "))
        #expect(late.status == 2)
    }

    /// Lengths a YAML number holds but no screen has are refused at load with the limit, by every
    /// command (`run --render` used to stop converting 1e308 to a count of markers).
    @Test func deviceLengthsHaveALimit() throws {
        let huge = "name: d\ndevice: {width: 1e308, height: 568, hz: 60, keyboard: {portrait: 216, landscape: 162}}\nsteps: []\n"
        let file = try Rehearse.scenario(huge)
        let expected =
            "\(file.path):2:17: error: device: field 'width' must be more than 0 and at most 10000 points, found 1e+308"
        let out = file.deletingLastPathComponent().appendingPathComponent("out").path
        for arguments in [["validate", file.path], ["run", "--render", out, file.path], ["render", file.path, "--at", "0"]] {
            let result = try Rehearse.run(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result.errorOutput)")
            #expect((result.output + result.errorOutput).contains(expected), "\(arguments[0]): \(result.output)")
        }
        let keyboard = try validate("name: d\ndevice: {width: 320, height: 568, hz: 60, keyboard: [1e300, 162]}\nsteps: []\n")
        #expect(keyboard.status == 2)
        #expect(keyboard.message.contains("each at most 10000 points"), "\(keyboard.message)")
    }

    /// A scene may hold any finite frame; pictures of it are drawn, never a crash.
    @Test func hugeFramesAreDrawn() throws {
        let file = try Rehearse.scenario(
            """
            name: wide photo
            scene:
              nodes:
                - {id: photo, kind: imageView, frame: [-1e308, 0, 1e308, 1e308]}
                - {id: shape, kind: shape, frame: [0, 0, 1e308, 10]}
            steps:
              - snapshot: wide
            """)
        let folder = file.deletingLastPathComponent()
        let run = try Rehearse.run(["run", "--render", folder.appendingPathComponent("out").path, file.path], in: folder)
        #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
        let render = try Rehearse.run(["render", file.path, "--at", "0"])
        #expect(render.status == 0, "\(render.errorOutput)")
        #expect(render.output.contains("<svg"))
    }

    @Test func aFileOfOnlySetUpIsAScenario() throws {
        let file = try Rehearse.scenario("name: set-up only\nplugins: [gateway]\nsteps: []\n")
        #expect(try Rehearse.run(["validate", file.path]).status == 0)
        #expect(try Rehearse.run(["run", file.path]).status == 0)
    }
}
