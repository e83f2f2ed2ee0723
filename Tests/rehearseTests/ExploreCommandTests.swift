import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse explore`: the shipped plugins' invariants hold under a fixed seed and budget, and a
/// broken invariant is shrunk into a file that `rehearse run` fails the same way.
@Suite struct ExploreCommandTests {
    /// A panner scenario whose invariant exploration breaks: the photo pans past 1,100 points.
    private static let farPan = """
        name: the photo never pans far
        plugins: [panner]
        invariants: [{name: near the middle, check: scroll.contentOffset.x <= 1100}]
        steps: []
        """

    /// One scenario per plugin (the login flow has two), with a budget of a few seconds each in a
    /// debug build.
    @Test(arguments: [
        ("Scenarios/gateway/transition-fade.yaml", 2000), ("Scenarios/gateway/network-gate.yaml", 2000),
        ("Scenarios/panner/tilt-stream.yaml", 500), ("Scenarios/auto-scroll/clamp-option.yaml", 500),
        ("Scenarios/login-animator/displacement-keyboard.yaml", 200), ("Scenarios/login-flow/login-flow.yaml", 200),
    ])
    func theShippedPluginsInvariantsHold(scenario: String, runs: Int) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        let result = try Rehearse.run(["explore", scenario, "--seed", "7", "--runs", "\(runs)", "--out", out.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("no invariant broke in \(runs) sequences"))
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
    }

    @Test func aBrokenInvariantIsShrunkWrittenReproducedAndReported() throws {
        let file = try Rehearse.scenario(
            """
            name: the photo never pans far
            plugins: [panner]
            invariants:
              - {name: near the middle, check: scroll.contentOffset.x <= 1100}
            steps: []
            """, named: "far-pan.yaml")
        let out = file.deletingLastPathComponent().appendingPathComponent("failures")
        let report = file.deletingLastPathComponent().appendingPathComponent("report")
        let result = try Rehearse.run(["explore", file.path, "--out", out.path, "--report", report.path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("invariant 'near the middle' (scenario) broke in seed "))
        let written = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("written: ") })
        let path = String(written.dropFirst("written: ".count).prefix { $0 != " " })
        #expect(path.hasPrefix(out.path + "/far-pan-seed-"))
        let shrunk = result.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(shrunk.count == 2, "two tilts: one pans 71 points from 976 (7.1 x 5 x 2), two reach 1118: \(shrunk)")
        let replay = try Rehearse.run(["run", path])
        #expect(replay.status == 1)
        #expect(replay.output.contains("invariant 'near the middle' (scenario)"))
        // Issue 27: --report writes the shrunk failure as the HTML report does a run's, with the
        // scene as it was when the invariant broke.
        #expect(result.output.contains("report: \(report.path)/index.html"))
        let pages = try FileManager.default.subpathsOfDirectory(atPath: report.path).filter {
            $0.hasSuffix(".html") && $0 != "index.html"
        }
        let page = try String(contentsOf: report.appendingPathComponent(try #require(pages.first)), encoding: .utf8)
        #expect(pages.count == 1 && page.contains("invariant &apos;near the middle&apos; (scenario)"))
        #expect(page.contains(#"<figure data-picture="failure">"#) && page.contains(#"data-id="image""#))
        let invalid = try Rehearse.run(["explore", try Rehearse.scenario("name: x\nsteps: [{tap: nowhere}]\n").path])
        #expect(invalid.status == 2)
        #expect(invalid.output.contains("unknown node 'nowhere'"))
    }

    /// The written file's name starts with the explored file's, cut to
    /// `ExploreCommand.maximumBaseLength` characters: a scenario named with 245 characters (a file
    /// name may have 255) found its failure and then could not write it (the name, with
    /// `-seed-S-N.yaml`, was past the system's limit).
    @Test func aLongScenarioNameStillGivesAFileTheFailureIsWrittenTo() throws {
        let file = try Rehearse.scenario(Self.farPan, named: String(repeating: "a", count: 245) + ".yaml")
        let out = file.deletingLastPathComponent().appendingPathComponent("failures")
        let result = try Rehearse.run(["explore", file.path, "--seed", "3", "--runs", "50", "--out", out.path])
        #expect(result.status == 1, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("written: \(out.path)/\(String(repeating: "a", count: 100))-seed-"), "\(result.output)")
    }

    /// A file of the failure's name in `--out` that holds something else (or is a symbolic link) is
    /// kept, said on standard error, and the failure written beside it; `--force` replaces it (a
    /// link itself, never its target); the same failure again leaves its file as it is.
    @Test func anExistingFileIsKeptUnlessForced() throws {
        let file = try Rehearse.scenario(Self.farPan, named: "far-pan.yaml")
        let out = file.deletingLastPathComponent().appendingPathComponent("failures")
        func explore(_ options: [String] = []) throws -> (result: CommandResult, path: String) {
            let result = try Rehearse.run(["explore", file.path, "--seed", "3", "--runs", "50", "--out", out.path] + options)
            #expect(result.status == 1, "\(result.output)\(result.errorOutput)")
            let written = result.output.split(separator: "\n").first { $0.hasPrefix("written: ") } ?? ""
            return (result, String(written.dropFirst("written: ".count).prefix { $0 != " " }))
        }
        let first = try explore()
        let failure = try String(contentsOf: URL(fileURLWithPath: first.path), encoding: .utf8)
        #expect(try explore().path == first.path, "the same failure: its file, unchanged")
        #expect(try explore().result.errorOutput.isEmpty)

        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: first.path))
        let kept = try explore()
        #expect(kept.path == first.path.replacingOccurrences(of: ".yaml", with: "-2.yaml"))
        #expect(kept.result.errorOutput.contains("kept \(first.path), which holds another scenario (--force replaces it)"))
        #expect(try String(contentsOf: URL(fileURLWithPath: first.path), encoding: .utf8) == "mine\n")
        #expect(try String(contentsOf: URL(fileURLWithPath: kept.path), encoding: .utf8) == failure)

        let victim = file.deletingLastPathComponent().appendingPathComponent("victim.yaml")
        try Data("precious\n".utf8).write(to: victim)
        try FileManager.default.removeItem(atPath: first.path)
        try FileManager.default.createSymbolicLink(atPath: first.path, withDestinationPath: victim.path)
        #expect(try explore().path == kept.path, "a link is kept too")
        let forced = try explore(["--force"])
        #expect(forced.path == first.path)
        #expect(try String(contentsOf: URL(fileURLWithPath: first.path), encoding: .utf8) == failure)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
    }

    /// `--format jsonl` is one JSON object (shards merge with `cat`), `--format junit` valid JUnit
    /// XML; both carry the failure and the coverage.
    @Test func theReportsForMachinesCarryTheFailureAndTheCoverage() throws {
        let file = try Rehearse.scenario(Self.farPan)
        let out = file.deletingLastPathComponent().appendingPathComponent("failures").path
        let json = try Rehearse.run(["explore", file.path, "--out", out, "--format", "jsonl"])
        #expect(json.status == 1)
        let lines = json.output.split(separator: "\n")
        #expect(lines.count == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(report["status"] as? String == "failed")
        let failure = try #require(report["failure"] as? [String: Any])
        #expect(failure["invariant"] as? String == "near the middle")
        #expect((failure["shrunk"] as? [String])?.count == 2)
        let coverage = try #require(report["coverage"] as? [String: Any])
        #expect((coverage["events"] as? [String])?.contains("motion") == true)
        #expect((coverage["pluginStates"] as? [String])?.contains("panner.motionEnabled=true") == true)

        let junit = try Rehearse.run(["explore", file.path, "--out", out, "--format", "junit"])
        #expect(junit.status == 1)
        #expect(try Rehearse.junitProblems(junit.output, besides: file, named: "explore.xml") == nil)
        #expect(junit.output.contains(#"failures="1""#))
    }
}

/// Issue 36: a failure exploration finds is written as the steps a person writes, and every time
/// `explore` reports is the time `rehearse run` of the written file fails at.
@Suite struct ExploreWritesStepsTests {
    /// A bundled set-up with an invariant that breaks (the login flow logs in, a gateway's first
    /// half second ends), or the test scene whose list a drag or fling scrolls too far.
    private static func setUp(_ name: String) throws -> URL {
        let root = Rehearse.packageRoot
        let breaking = [
            "login-flow": (
                "Scenarios/login-flow/login-flow.yaml", "{name: never logged in, check: gateway.status == 'loggedOut'}"
            ),
            "gateway": ("Scenarios/gateway/transition-fade.yaml", "{name: the first half second, check: time < 0.5}"),
        ]
        guard let (file, invariant) = breaking[name] else {
            return root.appendingPathComponent("Tests/rehearseTests/drag-breaks-list.yaml")
        }
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        #expect(text.contains("\nsteps:\n") && !text.contains("invariants:"))
        return try Rehearse.scenario(
            text.replacingOccurrences(of: "\nsteps:\n", with: "\ninvariants: [\(invariant)]\nsteps:\n"),
            named: "\(name).yaml")
    }

    /// The failure `explore` reports as text and as JSON, and the failure `run` of its file
    /// reports: the same invariant at the same time. Before, the text said when the sequence
    /// found broke, not the shrunk one the file replays (1.95 s for a file failing at 0.633 s).
    @Test(arguments: ["drag-breaks-list", "login-flow", "gateway"])
    func theSummarysTimeIsTheWrittenFilesFailureTime(setUp name: String) throws {
        let file = try Self.setUp(name)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let options = ["explore", file.path, "--seed", "1", "--runs", "2000", "--out", out.path]
        let json = try Rehearse.run(options + ["--format", "jsonl"])
        #expect(json.status == 1, "\(json.output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let failure = try #require(report["failure"] as? [String: Any])
        let time = try #require(failure["time"] as? Double)
        let written = try #require(failure["file"] as? String)
        let text = try Rehearse.run(options)
        let summary = try #require(text.output.split(separator: "\n").first { $0.contains(" broke in seed ") })
        let said = summary.split(separator: " at ").last?.prefix { $0 != " " }
        #expect(said.flatMap { Double($0) } == time, "\(summary)")

        let run = try Rehearse.run(["run", written, "--format", "json"])
        #expect(run.status == 1, "\(run.output)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let failures = try #require((result["scenarios"] as? [[String: Any]])?.first?["failures"] as? [[String: Any]])
        #expect(failures.first?["subject"] as? String == "invariant '\(failure["invariant"] as? String ?? "")' (scenario)")
        let writtenText = try String(contentsOfFile: written, encoding: .utf8)
        #expect(failures.first?["time"] as? Double == time, "\(summary)\n\(writtenText)")

        let steps = writtenText.split(separator: "\n").drop { $0 != "steps:" }
        #expect(!steps.contains { $0.contains("emit: {name: \"touch.") || $0.contains("- at:") }, "\(steps)")
        #expect(!steps.contains { $0.range(of: #"\.\d{9}"#, options: .regularExpression) != nil }, "\(steps)")
    }

    /// Done when: `explore` on a file whose invariant a drag breaks writes `drag`/`fling` steps and
    /// no `emit: touch.*`, and the same seed writes the same file byte for byte for any `--jobs`.
    @Test func aDragsFailureIsWrittenAsGestureSteps() throws {
        let file = try Self.setUp("drag-breaks-list")
        var texts: [String] = []
        for jobs in [1, 3] {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let result = try Rehearse.run(["explore", file.path, "--runs", "200", "--jobs", "\(jobs)", "--out", out.path])
            #expect(result.status == 1, "\(result.output)")
            let written = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("written: ") })
            texts.append(
                try String(contentsOfFile: String(written.dropFirst("written: ".count).prefix { $0 != " " }), encoding: .utf8))
        }
        #expect(texts[0] == texts[1])
        let steps = texts[0].split(separator: "\n").drop { $0 != "steps:" }.dropFirst()
        #expect(
            steps.contains {
                $0.hasPrefix("  - drag: {on: list, by: [0, -") || $0.hasPrefix("  - fling: {on: list, velocity: [0, -")
            },
            "\(texts[0])")
        #expect(
            steps.allSatisfy { $0.hasPrefix("  - drag: ") || $0.hasPrefix("  - fling: ") || $0.hasPrefix("  - wait: ") },
            "\(texts[0])")
    }
}

/// Issue 28: exploration finds and shrinks a failure that a remote plugin causes, and the file it
/// writes starts the plugin again from wherever it is run.
@Suite struct RemotePluginExploreTests {
    /// A file whose plugin hides the title on the third tap, which its invariant forbids.
    static func thirdTapScenario() throws -> URL {
        let plugin = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/third_tap_plugin.py").path
        return try Rehearse.scenario(
            """
            name: the title stays visible
            scene: paper-login
            plugins:
              - {id: third-tap, command: [python3, \(plugin)]}
            invariants:
              - {name: title visible, check: title.alpha > 0}
            explore: {length: 8, actions: {tap: 1}}
            steps: []
            """, named: "third-tap.yaml")
    }

    @Test func aRemotePluginsBugIsShrunkAndReproduced() throws {
        let file = try Self.thirdTapScenario()
        let out = file.deletingLastPathComponent().appendingPathComponent("failures")
        let result = try Rehearse.run(["explore", file.path, "--runs", "20", "--out", out.path])
        #expect(result.status == 1, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("invariant 'title visible' (scenario) broke in seed "))
        let shrunk = result.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(shrunk.count == 3 && shrunk.allSatisfy { $0.contains("tap") }, "three taps: \(shrunk)")
        let written = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("written: ") })
        let path = String(written.dropFirst("written: ".count).prefix { $0 != " " })
        let replay = try Rehearse.run(["run", path], in: URL(fileURLWithPath: "/"))
        #expect(replay.status == 1, "\(replay.output)")
        #expect(replay.output.contains("invariant 'title visible' (scenario)"))
    }

    /// `fault_plugin.py well` counts taps over its whole life, not per `Install`: each sequence
    /// of an exploration sees the taps of those before it. Its failure, shrunk and written, did
    /// not fail when run afresh, yet explore wrote it with "rehearse run reproduces it" (exit 1).
    @Test func aFailureItsFileDoesNotReproduceIsSaidAndNotWritten() throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that remembers earlier sequences
            scene: paper-login
            plugins:
              - {id: faulty, command: [python3, \(RemotePluginFaultTests.faultPlugin), well]}
            invariants:
              - {name: few taps, check: faulty.count < 3}
            explore: {length: 5, actions: {tap: 1}}
            steps: []
            """)
        let out = file.deletingLastPathComponent().appendingPathComponent("failures")
        let result = try Rehearse.runWithin(["explore", file.path, "--runs", "20", "--out", out.path])
        #expect(result.status == 2, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("\(file.path): error: seed "), "\(result.output)")
        #expect(
            result.output.contains("broke invariant 'few taps' (scenario) at ")
                && result.output.contains("did not: a plugin answers the same sequence differently"), "\(result.output)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out.path))?.isEmpty ?? true, "nothing written")
    }

    /// A command plugin that does not answer in time is ended with its connection, so no later
    /// sequence can start: explore said only "Error: no answer within 0.5 s to Deliver(tap)" and
    /// exited 1, the status of a broken invariant.
    @Test func aCommandPluginThatFailsStopsTheExplorationWithAnError() throws {
        let file = try Rehearse.scenario(
            """
            name: a plugin that falls silent
            scene: paper-login
            plugins:
              - {id: faulty, command: [python3, \(RemotePluginFaultTests.faultPlugin), silent], deadline: 0.5}
            explore: {length: 5, actions: {tap: 1}}
            steps: []
            """)
        let result = try Rehearse.runWithin(["explore", file.path, "--runs", "20"])
        #expect(result.status == 2, "\(result.output)\(result.errorOutput)")
        #expect(
            result.output.contains(
                "\(file.path): error: a command plugin failed, so no further sequence can run: "
                    + "no answer within 0.5 s to Deliver(tap)"), "\(result.output)\(result.errorOutput)")
    }

    /// `--report` runs the written file with its command plugins started, as `rehearse run
    /// --report` does: the report said the file was INVALID, "command plugins are started only for
    /// files given to rehearse run, ... not for a file sent over D-Bus".
    @Test func theReportOfARemotePluginsFailureRunsItsPlugin() throws {
        let file = try Self.thirdTapScenario()
        let folder = file.deletingLastPathComponent()
        let report = folder.appendingPathComponent("report")
        let result = try Rehearse.runWithin([
            "explore", file.path, "--runs", "20", "--out", folder.appendingPathComponent("failures").path,
            "--report", report.path,
        ])
        #expect(result.status == 1, "\(result.output)\(result.errorOutput)")
        let index = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("FAILED") && !index.contains("INVALID"), "\(index)")
    }
}
