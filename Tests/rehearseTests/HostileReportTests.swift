import Foundation
import IntegrationTestSupport
import RehearseCore
import Testing

/// The texts of every file under `folder` but the report's marker (``HTMLReport/marker``).
private func texts(under folder: URL) throws -> [(file: String, text: String)] {
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return try files.compactMap { file in
        let url = folder.appendingPathComponent(file)
        var isFolder: ObjCBool = false
        guard file != marker, FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
            return nil
        }
        return (file, try String(contentsOf: url, encoding: .utf8))
    }
}

/// The file a report's folder holds (`HTMLReport.marker`).
private let marker = ".rehearse-report"

/// `run --report DIR` attacked as a hostile scenario file, its name and its folder would.
@Suite struct HostileReportTests {
    /// A failing expectation that quotes the password typed into a secure field (as its expected
    /// value, or as an event expectation's field) never puts it in a report.
    @Test func aFailingExpectationNeverShowsTheTypedPassword() throws {
        let file = try Rehearse.scenario(
            """
            name: secrets
            scene:
              nodes:
                - {id: login, kind: view, frame: [0, 0, 320, 568]}
                - {id: title, kind: label, parent: login, text: Paper, frame: [0, 0, 0, 0]}
                - {id: username, kind: textField, parent: login, frame: [0, 0, 0, 0], returnKey: next}
                - {id: separator, kind: view, parent: login, frame: [0, 0, 0, 0]}
                - {id: password, kind: textField, parent: login, frame: [0, 0, 0, 0], returnKey: go, secure: true}
                - {id: home, kind: view, frame: [0, 0, 320, 568]}
            plugins:
              login-animator: {submitAnimation: true}
              gateway: {authenticator: {users: [vijay], latency: 1.0}}
            steps:
              - tap: username
              - type: {into: username, text: vijay}
              - return: username
              - type: {into: password, text: "correct \\"horse\\""}
              - expect: {password.text: "correct \\"horse\\""}
              - return: password
              - expect-event: {name: login.submit, fields: {username: "correct \\"horse\\""}}
              - expect: {title.text: "not correct \\"horse\\" either"}
            """, named: "login.yaml")
        let folder = file.deletingLastPathComponent()
        for format in ["text", "json", "junit"] {
            let result = try Rehearse.run(["run", "--format", format, "--report", "report", "login.yaml"], in: folder)
            #expect(result.status == 1)
            #expect(result.output.contains("redacted") && !result.output.contains("horse"), "\(format): \(result.output)")
        }
        let files = try texts(under: folder.appendingPathComponent("report"))
        #expect(files.count == 2)
        for (file, text) in files {
            #expect(text.contains("&lt;redacted&gt;") && !text.contains("horse"), "\(file) holds the typed password")
        }
    }

    /// Files whose pages would be one (`a.yaml` and `a.yml`, names that differ in case) each keep
    /// a page of their own, which the index and the JUnit report link to; a name too long for a
    /// page is cut; a name with `#`, `?`, `%`, quotes or a line break is linked percent-encoded.
    @Test func everyScenarioKeepsItsOwnPageWhateverItsName() throws {
        let passing = "name: passing\nscene: {nodes: []}\nsteps:\n  - wait: 0.1\n"
        let failing =
            "name: failing\nscene: {nodes: [{id: l, kind: label, frame: [0, 0, 10, 10], text: x}]}\nsteps:\n  - expect: {l.text: y}\n"
        let folder = try Rehearse.scenario(passing, named: "a.yaml").deletingLastPathComponent()
        let long = String(repeating: "b", count: 250)
        for (name, text) in [("a.yml", failing), ("A.yaml", failing), ("\(long).yml", failing), ("q\"#?%2e\nx.yaml", failing)] {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        let result = try Rehearse.run(["run", "--format", "junit", "--report", "report", "."], in: folder)
        #expect(result.status == 1, "\(result.errorOutput)")
        let pages = ["A.html", "a-2.html", "a-3.html", String(repeating: "b", count: 200) + ".html", "q\"#?%2e\nx.html"]
        let index = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
        for page in pages {
            let text = try String(contentsOf: folder.appendingPathComponent("report/scenarios/" + page), encoding: .utf8)
            #expect(text.contains(page == "a-2.html" ? "passing" : "failing"), "\(page)")  // sorted: A.yaml, a.yaml, a.yml
        }
        #expect(index.contains(#"href="scenarios/q%22%23%3F%252e%0Ax.html""#))
        let properties = result.output.components(separatedBy: "\n").filter { $0.contains("<property ") }
        #expect(Set(properties).count == 4 && properties.contains { $0.contains("report/scenarios/a-3.html") })
    }

    /// A scenario file where the report would write a page (`--report DIR DIR/index.html`, in a
    /// folder a report was written to) is refused and kept, and nothing is written, as `--trace`
    /// refuses to replace an input.
    @Test func theReportNeverReplacesAScenarioFile() throws {
        let text = "name: passing\nscene: {nodes: []}\nsteps:\n  - wait: 0.1\n"
        let file = try Rehearse.scenario(text, named: "index.html")
        try Data().write(to: file.deletingLastPathComponent().appendingPathComponent(marker))
        let result = try Rehearse.run(["run", "--report", ".", "index.html"], in: file.deletingLastPathComponent())
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("index.html is a file this command reads"), "\(result.errorOutput)")
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
        #expect(
            !FileManager.default.fileExists(atPath: file.deletingLastPathComponent().appendingPathComponent("scenarios").path))
    }

    /// The folder of a new passing scenario, `passing.yaml`, with the empty folders `names` beside it.
    private func passingScenario(besideFolders names: [String]) throws -> URL {
        let file = try Rehearse.scenario("name: passing\nscene: {nodes: []}\nsteps:\n  - wait: 0.1\n", named: "passing.yaml")
        let folder = file.deletingLastPathComponent()
        for name in names {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        return folder
    }

    /// A folder that holds files and no marker of a report (as `--report /` would be) is refused
    /// before anything runs, with exit 2 and nothing written, and so is a `--report` path that is
    /// a symbolic link (with or without a slash or a `.` at its end); an empty folder, or one a
    /// report was written to, is written (again). (Once, `--report /` wrote `/index.html` and
    /// `/scenarios/`, and `--report link/.` wrote through the link that `--report link` refused.)
    @Test func theReportWritesOnlyIntoAFolderOfItsOwn() throws {
        let folder = try passingScenario(besideFolders: ["home", "empty"])
        let manager = FileManager.default
        let foreign = folder.appendingPathComponent("home")
        let empty = folder.appendingPathComponent("empty")
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "empty")
        let trace = folder.appendingPathComponent("trace.jsonl")

        let refused = try Rehearse.run(["run", "--trace", trace.path, "--report", "home", "passing.yaml"], in: folder)
        #expect(refused.status == 2)
        #expect(
            refused.errorOutput.contains(
                "home holds files and no \(marker), so rehearse did not write it: give a new or empty folder"),
            "\(refused.errorOutput)")
        #expect(try manager.contentsOfDirectory(atPath: foreign.path) == ["notes.txt"])
        #expect(!manager.fileExists(atPath: trace.path), "the run went on")
        for link in ["link", "link/", "link//", "link/.", "link/./", "link/./.", "link/.//"] {
            let result = try Rehearse.run(["run", "--report", link, "passing.yaml"], in: folder)
            #expect(result.status == 2)
            #expect(
                result.errorOutput.contains("link is a symbolic link; give the folder it points to"),
                "\(link): \(result.errorOutput)")
            #expect(try manager.contentsOfDirectory(atPath: empty.path) == [], "\(link)")
        }

        for round in 1...2 {
            let written = try Rehearse.run(["run", "--report", "empty", "passing.yaml"], in: folder)
            #expect(written.status == 0, "round \(round): \(written.output)\(written.errorOutput)")
            #expect(
                try manager.contentsOfDirectory(atPath: empty.path).sorted() == [marker, "index.html", "scenarios"],
                "round \(round)")
        }
    }

    /// A report folder whose `scenarios` is a symbolic link is refused before anything is written
    /// into it: its `index.html` and its marker are left as they were, and nothing is written
    /// where the link points. (Once, `index.html` was rewritten, then the link refused.)
    @Test func aReportRefusedForALinkInsideWritesNothing() throws {
        let folder = try passingScenario(besideFolders: ["report", "elsewhere"])
        let manager = FileManager.default
        let report = folder.appendingPathComponent("report")
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try Data("an earlier marker\n".utf8).write(to: report.appendingPathComponent(marker))
        try Data("an earlier index\n".utf8).write(to: report.appendingPathComponent("index.html"))
        try manager.createSymbolicLink(
            atPath: report.appendingPathComponent("scenarios").path, withDestinationPath: "../elsewhere")

        let result = try Rehearse.run(["run", "--report", "report", "passing.yaml"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("report/scenarios is a symbolic link"), "\(result.errorOutput)")
        #expect(try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8) == "an earlier index\n")
        #expect(try String(contentsOf: report.appendingPathComponent(marker), encoding: .utf8) == "an earlier marker\n")
        #expect(try manager.contentsOfDirectory(atPath: elsewhere.path) == [])
    }

    /// A long text is drawn cut in each of the report's pictures, so the page does not grow as the
    /// text times the steps (17 labels of 900 KB through a YAML alias and 200 steps made 2.9 GB;
    /// a text is now at most `ScenarioLimits.textLength`, which uncut would still make 2 MB here).
    @Test func aLongTextDoesNotMultiplyThePage() throws {
        let text = String(repeating: "x", count: ScenarioLimits.textLength)
        let steps = String(repeating: "  - wait: 0.01\n", count: 100)
        let file = try Rehearse.scenario(
            """
            name: long
            scene:
              nodes:
                - {id: a, kind: label, frame: [0, 0, 100, 30], text: &t \(text)}
                - {id: b, kind: label, frame: [0, 30, 100, 30], text: *t}
            steps:
            \(steps)
            """, named: "long.yaml")
        let result = try Rehearse.run(["run", "--report", "report", "long.yaml"], in: file.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.output)")
        let page = file.deletingLastPathComponent().appendingPathComponent("report/scenarios/long.html")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size < 1 << 20, "the page has \(size) bytes")
    }

    /// Events that carry long texts (typed 50 times, 2,000 characters each: five times into each of
    /// 10 fields, which fills each to `ScenarioLimits.textLength`) are listed cut to
    /// ``HTMLReport/maximumEventLineBytes`` (2,000 bytes), so the page stays small.
    @Test func longEventsAreListedCut() throws {
        let text = String(repeating: "y", count: ScenarioLimits.textLength / 5)
        let fields = (0..<10).map { "    - {id: field\($0), kind: textField, frame: [0, 0, 100, 30]}\n" }.joined()
        let typing = (1..<50).map { "  - type: {into: field\($0 % 10), text: *t}\n" }.joined()
        let file = try Rehearse.scenario(
            """
            name: long events
            scene:
              nodes:
            \(fields)
            steps:
              - type: {into: field0, text: &t \(text)}
            \(typing)
            """, named: "events.yaml")
        let result = try Rehearse.run(["run", "--report", "report", "events.yaml"], in: file.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.output)")
        let page = try String(
            contentsOf: file.deletingLastPathComponent().appendingPathComponent("report/scenarios/events.html"), encoding: .utf8)
        #expect(page.utf8.count < 1 << 20, "the page has \(page.utf8.count) bytes")
        #expect(page.components(separatedBy: "…</code>").count - 1 == 50)
    }
}
