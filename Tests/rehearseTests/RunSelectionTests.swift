import Foundation
import IntegrationTestSupport
import Testing

/// A scenario called `name` that passes when `x` is 0 and fails otherwise.
func boxScenario(_ name: String, x: Int = 0) -> String {
    """
    name: \(name)
    scene:
      nodes:
        - {id: box, kind: view, frame: [0, 0, 10, 10]}
    steps:
      - wait: 0.1
      - expect: {box.frame.x: \(x)}
    """
}

/// A fresh temporary folder holding `files` (relative path: text).
func scenarioFolder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-\(UUID().uuidString)")
    for (path, text) in files {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    return folder
}

/// `run --filter`, `run --list` and `run --fail-fast` (issue 36).
@Suite struct RunSelectionTests {
    private let folder: URL

    init() throws {
        folder = try scenarioFolder([
            "login/logs-in.yaml": boxScenario("Logs in with a password"),
            "login/forgets.yaml": boxScenario("Forgotten password"),
            "scroll/flings.yaml": boxScenario("Flings the list"),
        ])
    }

    /// The files `run --list ARGUMENTS` prints, as `name<TAB>path` lines.
    private func listed(_ arguments: [String]) throws -> [String] {
        let result = try Rehearse.run(["run", "--list"] + arguments + [folder.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func listPrintsEveryNameAndPathInFileOrderAndRunsNothing() throws {
        let lines = try listed([])
        #expect(
            lines == [
                "Forgotten password\t\(folder.path)/login/forgets.yaml",
                "Logs in with a password\t\(folder.path)/login/logs-in.yaml",
                "Flings the list\t\(folder.path)/scroll/flings.yaml",
            ])
    }

    @Test func aFilterIsASubstringOfTheNameOrThePath() throws {
        #expect(
            try listed(["--filter", "password"]).map { $0.prefix { $0 != "\t" } } == [
                "Forgotten password", "Logs in with a password",
            ])
        #expect(try listed(["--filter", "scroll/"]).count == 1)
        // Repeated: any of them.
        #expect(try listed(["--filter", "Flings", "--filter", "forgets"]).count == 2)
    }

    @Test func aFilterIsARegularExpressionAndNotOneIsPlainText() throws {
        #expect(
            try listed(["--filter", "^Log|^Fling"]).map { $0.prefix { $0 != "\t" } } == [
                "Logs in with a password", "Flings the list",
            ])
        #expect(try listed(["--filter", #"/[a-z-]+\.yaml$"#]).count == 3)
        #expect(try listed(["--filter", #"/[a-z]+\.yaml$"#]).count == 2)
        #expect(try listed(["--filter", "s{2}w"]).count == 2)  // "password"
        // Not an expression: matched as it is (no name holds it).
        let result = try Rehearse.run(["run", "--filter", "password(", folder.path])
        #expect(result.status == 2)
        #expect(
            result.errorOutput == "rehearse run: --filter 'password(' selects none of the 3 scenario file(s) "
                + "(a pattern is matched anywhere in a scenario's name or path)\n")
        #expect(result.output.isEmpty)
    }

    @Test func aFilterRunsOnlyWhatItSelects() throws {
        let result = try Rehearse.run(["run", "--filter", "Flings", folder.path])
        #expect(result.status == 0)
        #expect(result.output.contains("scroll/flings.yaml"))
        #expect(!result.output.contains("login/"))
        #expect(result.output.hasSuffix("scenarios: 1 passed, 0 failed\n"))
    }

    /// `(a+)+$` on `aaa...ab` takes a backtracking matcher 2^n steps: here 2^4000. The machine
    /// takes each character once, against every instruction at most: a few milliseconds for the
    /// three files; 10 s (far more than a debug build's start and the reading of the files) bounds it.
    @Test func aCatastrophicExpressionDoesNotHang() throws {
        let long = scenarioFolder
        let name = String(repeating: "a", count: 4_000) + "b"
        let hostile = try long(["\(String(repeating: "a", count: 200)).yaml": boxScenario(name)])
        let start = ContinuousClock.now
        let result = try Rehearse.run(["run", "--list", "--filter", "(a+)+$", "--filter", "(a|aa)*c", hostile.path])
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.status == 2)  // a name ending in b, a path ending in .yaml: neither matches
        #expect(result.errorOutput.contains("selects none of the 1 scenario file(s)"))
    }

    @Test func patternsPastTheLimitsAreRefused() throws {
        let tooLong = try Rehearse.run(["run", "--filter", String(repeating: "a", count: 201), folder.path])
        #expect(tooLong.status == 2)
        #expect(tooLong.errorOutput.contains("--filter takes a pattern of 1 to 200 characters"))
        let repeating = try Rehearse.run(["run", "--filter", "((a{1000}){1000})", folder.path])
        #expect(repeating.status == 2)
        #expect(repeating.errorOutput.contains("more than 1000 instructions"))
    }

    @Test func listReportsInvalidFilesAsValidateDoes() throws {
        let broken = try scenarioFolder(["ok.yaml": boxScenario("fine"), "broken.yaml": "name: broken\nsteps:\n  - wiat: 1\n"])
        let result = try Rehearse.run(["run", "--list", broken.path])
        #expect(result.status == 2)
        #expect(result.output.contains("\(broken.path)/broken.yaml:3:5: error: unknown step 'wiat'"))
        #expect(result.output.contains("fine\t\(broken.path)/ok.yaml"))
    }

    @Test func failFastStopsAtTheFirstFileThatDoesNotPassAndSaysHowManyWereNotRun() throws {
        let files = try scenarioFolder([
            "1.yaml": boxScenario("one"), "2.yaml": boxScenario("two", x: 5), "3.yaml": boxScenario("three"),
            "4.yaml": boxScenario("four"),
        ])
        let result = try Rehearse.run(["run", "--fail-fast", "--jobs", "1", files.path])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL \(files.path)/2.yaml"))
        #expect(!result.output.contains("3.yaml") && !result.output.contains("4.yaml"))
        #expect(
            result.output.hasSuffix(
                "scenarios: 1 passed, 1 failed\n2 not run: --fail-fast stopped at the first that did not pass\n"))
        // Without it, all four run.
        #expect(try Rehearse.run(["run", "--jobs", "1", files.path]).output.hasSuffix("scenarios: 3 passed, 1 failed\n"))
    }

    /// With two jobs, the slow file that started beside the failing one finishes and is reported
    /// (it takes about 1 s, the failing one about 10 ms); the three after it never start.
    @Test func failFastLetsTheFilesAlreadyRunningFinish() throws {
        let slow = """
            name: slow
            scene:
              nodes:
                - {id: box, kind: view, frame: [0, 0, 10, 10]}
            steps:
              - animate: {target: box, property: alpha, to: 0, duration: 1000}
              - wait: 1000
            """
        let files = try scenarioFolder([
            "1.yaml": boxScenario("one", x: 5), "2.yaml": slow, "3.yaml": boxScenario("three"),
            "4.yaml": boxScenario("four"), "5.yaml": boxScenario("five"),
        ])
        let result = try Rehearse.run(["run", "--fail-fast", "--jobs", "2", files.path])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL \(files.path)/1.yaml") && result.output.contains("PASS \(files.path)/2.yaml"))
        #expect(
            result.output.hasSuffix(
                "scenarios: 1 passed, 1 failed\n3 not run: --fail-fast stopped at the first that did not pass\n"))
    }

    @Test func listAndWatchRefuseWhatTheyCannotDo() throws {
        let list = try Rehearse.run(["run", "--list", "--fail-fast", folder.path])
        #expect(list.status == 2)
        #expect(list.errorOutput.contains("--list runs nothing"))
        let watch = try Rehearse.run(["run", "--watch", "--format", "json", folder.path])
        #expect(watch.status == 2)
        #expect(watch.errorOutput.contains("--watch reports to the terminal"))
    }
}
