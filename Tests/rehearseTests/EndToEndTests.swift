import Foundation
import IntegrationTestSupport
import RehearseCore
import RehearsePlugins
import RehearseScenario
import Testing

private let failing = """
    name: a field that is not where the test thinks
    scene:
      nodes:
        - {id: username, kind: textField, frame: [20, 260, 280, 30]}
    steps:
      - tap: username
      - wait: 0.25
      - expect: {username.frame.y: 250}
    """

@Suite struct EndToEndTests {
    @Test func theBundledScenariosPass() throws {
        let result = try Rehearse.run(["run", "Scenarios"])
        #expect(result.status == 0, "\(result.output)")
        let summary = try #require(result.output.split(separator: "\n").last)
        #expect(summary.hasPrefix("scenarios: ") && summary.hasSuffix(" passed, 0 failed"))
    }

    @Test func aFailedExpectationExitsOneAndSaysWhatWhereAndWhen() throws {
        let file = try Rehearse.scenario(failing)
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL \(file.path)"))
        #expect(result.output.contains("\(file.path):8:14: expectation failed at 0.25 s: username.frame.y"))
        #expect(result.output.contains("expected: 250\n"))
        #expect(result.output.contains("actual:   260.0\n"))
        #expect(result.output.contains(#""name":"keyboard.willShow""#) || result.output.contains(#""name":"tick""#))
        #expect(result.output.hasSuffix("scenarios: 0 passed, 1 failed\n"))
    }

    /// Issue 25: `validate` reports every error of a file, each with its position, as compilers
    /// do: a broken invariant and two broken steps are three lines, in the file's order.
    @Test func validateReportsEveryErrorOfAFile() throws {
        let file = try Rehearse.scenario(
            """
            name: three mistakes
            scene: paper-login
            plugins: [login-animator]
            invariants:
              - {name: title on screen, check: titel.frame.y >= 0}
            steps:
              - tapp: username
              - wait: 0.3
              - expect: {username.frame.z: 1}
            """)
        let result = try Rehearse.run(["validate", file.path])
        #expect(result.status == 2)
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == 3, "\(result.output)")
        #expect(
            lines[0]
                == "\(file.path):5:36: error: path 'titel.frame.y': 'titel' is not a node, a plugin or a system path (did you mean 'title'?)"
        )
        #expect(lines[1].hasPrefix("\(file.path):7:5: error: unknown step 'tapp' (did you mean 'tap'?); steps: "))
        #expect(lines[2] == "\(file.path):9:14: error: path 'username.frame.z': frame has x, y, width, height, maxX, maxY")
    }

    /// Every file of the malformed corpus is refused by `rehearse run` with exit 2 and the loader's
    /// own error for it (which `MalformedCorpusTests` holds to `MalformedExpectations.tsv`).
    @Test func everyMalformedFileIsRefusedWithItsMessageAndExitTwo() throws {
        let folder = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseScenarioTests/Malformed")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 40)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let error = #expect(throws: ScenarioError.self) {
                try ScenarioLoader(registry: shippedPlugins).load(data: data, file: file)
            }
            let result = try Rehearse.run(["run", file], in: folder)
            #expect(result.status == 2, "\(file)")
            #expect(result.output.hasPrefix("INVALID \(error?.description ?? "?")\n"), "\(file): \(result.output)")
        }
    }

    /// Issue 16: what a user had to guess (the login animator's phases, the panner's centred
    /// start) is listed from the plugins' declarations and a simulation of their scenes.
    @Test func pluginsVerboseListsStateValuesAndStartingScenes() throws {
        let result = try Rehearse.run(["plugins", "--verbose"])
        #expect(result.status == 0)
        #expect(result.output.contains(#"phase = "editing" (editing | submitting | succeeded | failed): where the login is"#))
        #expect(result.output.contains("scroll (scrollView) frame [0, 0, 320, 568], contentOffset [976, 1732.4, 0, 0]"))
        #expect(result.output.contains("login.submit {username}"))
        #expect(result.output.contains(#"apiKey = "" ("" | <redacted>)"#))
    }

    /// Every preset is listed, and has its scenario in Scenarios/devices/ (one per preset, no other).
    @Test func devicesListsEveryPresetAndEachHasItsScenario() throws {
        let result = try Rehearse.run(["devices"])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                """
                iphone-x       375×812 points @3x, 60 Hz
                  portrait: keyboard 291, safe area top 44 left 0 bottom 34 right 0
                  landscape: keyboard 183, safe area top 0 left 44 bottom 21 right 44
                """))
        let listed = result.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
            String($0.split(separator: " ")[0])
        }
        #expect(listed == Device.presetList.map(\.name))
        let folder = Rehearse.packageRoot.appendingPathComponent("Scenarios/devices")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.sorted() == listed.map { "\($0).yaml" }.sorted())
        for name in listed {
            let text = try String(contentsOf: folder.appendingPathComponent("\(name).yaml"), encoding: .utf8)
            #expect(text.contains("\ndevice: \(name)\n"), "\(name).yaml runs on \(name)")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try Rehearse.run(["run", "--jobs", "0", "Scenarios"]).status == 2)
        #expect(try Rehearse.run(["run", "no/such/folder"]).status == 2)
        #expect(try Rehearse.run(["frobnicate"]).status == 2)
        #expect(try Rehearse.run(["run", "--format", "xml", "Scenarios"]).status == 2)
        #expect(try Rehearse.run(["--help"]).status == 0)
        #expect(try Rehearse.run(["--version"]).output == "0.3.0\n")
    }

    /// Each event once, with the fields its one declaration gives: the login events are shared by
    /// two plugins through one module.
    @Test func eventsListsEveryEventOnceWithItsFields() throws {
        let result = try Rehearse.run(["events"])
        #expect(result.status == 0)
        let names = result.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.split(separator: " ")[0] }
        #expect(names.count == Set(names).count)
        #expect(names.contains("keyboard.willShow") && names.contains("form.save") && names.contains("gateway.navigate"))
        // The fields start in a column as wide as the longest name (scroll.didEndDecelerating, issue 26).
        let failed = result.output.split(separator: "\n").first { $0.hasPrefix("login.failed ") }
        #expect(
            failed?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ")
                == "username, reason?")
    }

    @Test func jsonReportParsesAndCounts() throws {
        let file = try Rehearse.scenario(failing)
        let result = try Rehearse.run(["run", "--format", "json", file.path, "Scenarios"])
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(report["failed"] as? Int == 1)
        #expect((report["passed"] as? Int ?? 0) >= 1)
        let scenarios = try #require(report["scenarios"] as? [[String: Any]])
        let failed = try #require(scenarios.first { $0["status"] as? String == "failed" })
        let failure = try #require((failed["failures"] as? [[String: Any]])?.first)
        #expect(failure["subject"] as? String == "username.frame.y")
        #expect(failure["time"] as? Double == 0.25)
    }

    @Test func junitReportMatchesTheSchema() throws {
        let failingFile = try Rehearse.scenario(failing)
        let invalidFile = try Rehearse.scenario("name: <&>\nsteps: [ {tapp: x} ]\n", named: "invalid \"quoted\".yaml")
        let result = try Rehearse.run(["run", "--format", "junit", failingFile.path, invalidFile.path, "Scenarios"])
        #expect(result.status == 2)
        #expect(try Rehearse.junitProblems(result.output, besides: failingFile, named: "report.xml") == nil)
        #expect(result.output.contains(#"<testsuite name="scenarios" tests=""#))
        #expect(result.output.contains(#"failures="1" errors="1""#))
    }

    @Test func traceIsJSONLinesAndTheSameEveryRun() throws {
        let file = try Rehearse.scenario(failing)
        let folder = file.deletingLastPathComponent()
        _ = try Rehearse.run(["run", "--trace", folder.appendingPathComponent("a.jsonl").path, file.path])
        _ = try Rehearse.run(["run", "--trace", folder.appendingPathComponent("b.jsonl").path, file.path])
        let first = try Data(contentsOf: folder.appendingPathComponent("a.jsonl"))
        let second = try Data(contentsOf: folder.appendingPathComponent("b.jsonl"))
        #expect(first == second)
        let lines = String(decoding: first, as: UTF8.self).split(separator: "\n")
        #expect(lines.count > 5)
        for line in lines {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(event.keys) == ["seq", "time", "name", "fields"])
        }
    }

    @Test func parallelJobsPrintInTheSameOrder() throws {
        let folder = try Rehearse.scenario(failing, named: "a.yaml").deletingLastPathComponent()
        for name in ["b", "c", "d", "e", "f"] {
            try Data(failing.replacingOccurrences(of: "250", with: name == "d" ? "260" : "250").utf8)
                .write(to: folder.appendingPathComponent("\(name).yaml"))
        }
        func strip(_ text: String) -> String {
            text.replacingOccurrences(of: #"\d+(\.\d+)? ms\)"#, with: "ms)", options: .regularExpression)
        }
        let serial = try Rehearse.run(["run", "--jobs", "1", folder.path])
        let parallel = try Rehearse.run(["run", "--jobs", "4", folder.path])
        #expect(serial.status == 1 && parallel.status == 1)
        #expect(strip(serial.output) == strip(parallel.output))
        #expect(serial.output.hasSuffix("scenarios: 1 passed, 5 failed\n"))
    }
}

@Suite struct RenderingTests {
    @Test func runRendersAFilmstripSnapshotsAndPlotsAsWellFormedSVG() throws {
        let file = try Rehearse.scenario(
            """
            name: pictures
            scene:
              nodes:
                - {id: username, kind: textField, frame: [20, 260, 280, 30]}
            steps:
              - tap: username
              - wait: 0.5
              - snapshot: keyboard-up
              - resign: all
              - wait: 0.5
            """)
        let folder = file.deletingLastPathComponent().appendingPathComponent("pictures")
        // Run from the scenario's folder: the pictures go to a folder named as its relative path.
        let result = try Rehearse.run(
            [
                "run", "--render", folder.path, "--plot", "keyboard.presentation.frame.y",
                file.lastPathComponent,
            ], in: file.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.output)")
        let produced = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("scenario").path)
        #expect(Set(produced) == ["filmstrip.svg", "snapshot-keyboard-up.svg", "plot.svg"])
        for name in produced {
            let path = folder.appendingPathComponent("scenario").appendingPathComponent(name).path
            let check = try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", path])
            #expect(check.status == 0, "\(name): \(check.errorOutput)")
        }
        let filmstrip = try String(contentsOf: folder.appendingPathComponent("scenario/filmstrip.svg"), encoding: .utf8)
        #expect(filmstrip.components(separatedBy: "<g transform=").count - 1 == 24)
        let snapshot = try String(contentsOf: folder.appendingPathComponent("scenario/snapshot-keyboard-up.svg"), encoding: .utf8)
        // The keyboard has arrived: 216 high at the bottom of the 568-point screen.
        #expect(snapshot.contains(#"<rect x="0" y="352" width="320" height="216""#))
    }

    @Test func renderDrawsTheSceneAtAMomentTheSameEveryTime() throws {
        let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/core/keyboard-follows-focus.yaml").path
        let first = try Rehearse.run(["render", scenario, "--at", "0.1"])
        let second = try Rehearse.run(["render", scenario, "--at", "0.1"])
        #expect(first.status == 0)
        #expect(first.output == second.output)
        // Curve 7 at 0.1 s: 1 - e^(-1.8257)(1 + 1.8257) = 0.5448, so y = 568 - 216 × 0.5448 = 450.33;
        // the keyboard is clipped to the screen.
        #expect(first.output.contains(#"<rect x="0" y="450.33" width="320" height="117.67""#))
        #expect(first.output.contains("t = 0.1 s"))
    }

    /// Issue 16: a time outside the run is an error naming the run's length, with the usage of
    /// `render` (not of `rehearse`); negative values too.
    @Test func renderRefusesATimeOutsideTheRun() throws {
        let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/core/keyboard-follows-focus.yaml").path
        let length = try #require(
            try Rehearse.run(["run", "--format", "json", scenario]).output
                .firstMatch(of: /"simulatedTime":([0-9.]+)/).flatMap { Double($0.1) })
        let lengthText = length == length.rounded() ? String(Int(length)) : String(length)
        for at in ["--at=-1", "--at=99"] {
            let result = try Rehearse.run(["render", scenario, at])
            #expect(result.status == 2)
            #expect(result.errorOutput.contains("runs from 0 to \(lengthText) s"), "\(result.errorOutput)")
            #expect(result.errorOutput.contains("Usage: rehearse render <scenario>"), "\(result.errorOutput)")
        }
        #expect(try Rehearse.run(["render", scenario, "--at", String(length)]).status == 0, "the end itself is in the run")
    }

    /// A plotted path one scenario of the run lacks is left out of that one with a note; a run that
    /// takes no time still gets its filmstrip of one frame.
    @Test func aMissingPlotPathIsANoteAndAnInstantRunHasOneFrame() throws {
        let file = try Rehearse.scenario(
            """
            name: instant
            scene:
              nodes:
                - {id: box, kind: view, frame: [0, 0, 10, 10]}
            steps:
              - expect: {box.frame.x: 0}
            """)
        let folder = file.deletingLastPathComponent().appendingPathComponent("pictures")
        let result = try Rehearse.run(
            ["run", "--render", folder.path, "--plot", "nothing.here", file.lastPathComponent],
            in: file.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(
            result.errorOutput.contains("note: scenario.yaml: --plot nothing.here is not plotted here: 'nothing' is not a node"))
        let filmstrip = try String(contentsOf: folder.appendingPathComponent("scenario/filmstrip.svg"), encoding: .utf8)
        #expect(filmstrip.components(separatedBy: "<g transform=").count - 1 == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("scenario/plot.svg").path))
    }
}
