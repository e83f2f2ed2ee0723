import Foundation
import Testing

/// The password form, then a keyboard expectation, a tap and a wait.
private func form(name: String, usernameY: Double) -> String {
    passwordForm(name: name, usernameY: usernameY, more: ["expect: {keyboard.presentation.frame.y: 352}", "tap: username", "wait: 0.3"])
}

/// A folder with a passing scenario and one whose golden picture no longer matches, and its
/// `--report` written; returns the folder and the report's.
private func reportOfAFailingAndAPassingScenario() throws -> (folder: URL, report: URL) {
    let failing = try Rehearse.scenario(form(name: "moved <b>field</b>", usernameY: 260), named: "moved.yaml")
    let folder = failing.deletingLastPathComponent()
    try Data(form(name: "unchanged", usernameY: 260).utf8).write(to: folder.appendingPathComponent("unchanged.yaml"))
    #expect(try Rehearse.run(["run", "--update-pictures", "."], in: folder).status == 0)
    try Data(form(name: "moved <b>field</b>", usernameY: 266).utf8).write(to: failing)
    let result = try Rehearse.run(["run", "--report", "report", "."], in: folder)
    #expect(result.status == 1)
    #expect(result.output.contains("report: report/index.html"))
    return (folder, folder.appendingPathComponent("report"))
}

/// Issue 27: `rehearse run --report DIR`.
@Suite struct HTMLReportTests {
    @Test func theReportHasAPageAScenarioAndHoldsNoSecretAndNoMarkupFromAFile() throws {
        let (_, report) = try reportOfAFailingAndAPassingScenario()
        let index = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        let moved = try String(contentsOf: report.appendingPathComponent("scenarios/moved.html"), encoding: .utf8)
        let unchanged = try String(contentsOf: report.appendingPathComponent("scenarios/unchanged.html"), encoding: .utf8)
        // Failures first; the name is text, never markup.
        let failingRow = try #require(index.range(of: "scenarios/moved.html")), passingRow = try #require(index.range(of: "scenarios/unchanged.html"))
        #expect(failingRow.lowerBound < passingRow.lowerBound)
        #expect(index.contains("moved &lt;b&gt;field&lt;/b&gt;") && !index.contains("<b>field"))
        // The failing page: both sides, the three pictures, a timeline frame a step, the events.
        #expect(moved.contains("username: frame [20, 260, 280, 30] in the reference, [20, 266, 280, 30] now"))
        for picture in ["reference", "actual", "diff"] { #expect(moved.contains(#"data-picture="\#(picture)""#)) }
        // Issue 36: the command that accepts the pictures, an overlay and a zoom; the index's
        // first problem has both sides.
        #expect(moved.contains("<pre data-accept>rehearse run --update-pictures ./moved.yaml</pre>"))
        #expect(moved.contains(#"<input type="range" class="onion""#) && moved.contains(#"class="zoom""#))
        #expect(index.contains("<td>picture &apos;typed&apos;: expected the drawing of __pictures__/moved/typed.json, actual username: frame [20, 260"))
        // Seven steps, four scenes: the two expectations and the last wait change nothing on the screen.
        #expect(moved.components(separatedBy: #"<div class="frame""#).count - 1 == 4)
        #expect(moved.components(separatedBy: "<tr data-frame=").count - 1 == 7)
        // The number an expect step checks is plotted over the run.
        #expect(moved.contains("<h2>Plots</h2>") && moved.contains(">keyboard.presentation.frame.y</text>"))
        #expect(moved.contains(#"<tr data-frame="2" class="failed">"#), "the expect-picture step is marked, on the scene before it")
        #expect(moved.contains("Events ("))
        #expect(!unchanged.contains("Failures"))
        // Self-contained: nothing is fetched, and the one script runs by its hash only.
        for page in [index, moved, unchanged] {
            #expect(!page.contains("src=") && !page.contains(#"href="http"#) && !page.contains("url(") && !page.contains("@import"))
            #expect(page.contains("script-src 'sha256-"))
        }
        // The typed password is in no file of the report.
        let files = FileManager.default.enumerator(atPath: report.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".html") {
            let text = try String(contentsOf: report.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("hunter2"), "\(file) holds the typed password")
        }
    }

    /// The JUnit report links a failing scenario to its page (a `report` property) and still
    /// matches the JUnit schema.
    @Test func theJUnitReportLinksEachFailureToItsPage() throws {
        let (folder, _) = try reportOfAFailingAndAPassingScenario()
        let result = try Rehearse.run(["run", "--format", "junit", "--report", "report", "."], in: folder)
        #expect(result.status == 1)
        let property = #"<property name="report" value="report/scenarios/moved.html"/>"#
        #expect(result.output.components(separatedBy: "<property ").count - 1 == 1 && result.output.contains(property))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/scenarios/moved.html").path))
        let xml = folder.appendingPathComponent("junit.xml")
        try Data(result.output.utf8).write(to: xml)
        let schema = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/junit.xsd")
        let check = try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", "--schema", schema.path, xml.path])
        #expect(check.status == 0, "\(check.errorOutput)")
    }

    /// A page that pictures a scroll view many times (a frame per step, and a golden picture's
    /// reference, actual and diff) is HTML5 as html5lib reads it strictly, gives no id twice, and
    /// every `url(#id)` names an id of that page: `html_ids.py`. (Once, every picture named its
    /// clip paths `s-clipN`, so a clip path found was the first picture's.)
    @Test func aPagesPicturesShareNoId() throws {
        let scrolled = """
            name: scrolled
            device: iphone-5
            scene:
              nodes:
                - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 3000]}
                - {id: row, kind: label, parent: list, frame: [0, 400, 320, 44], text: row}
            steps:
              - drag: {from: [160, 500], to: [160, 200], duration: 0.5}
              - expect-picture: dragged
              - wait: 0.5

            """
        let file = try Rehearse.scenario(scrolled, named: "scrolled.yaml")
        let folder = file.deletingLastPathComponent()
        #expect(try Rehearse.run(["run", "--update-pictures", "scrolled.yaml"], in: folder).status == 0)
        try Data(scrolled.replacingOccurrences(of: "to: [160, 200]", with: "to: [160, 300]").utf8).write(to: file)
        #expect(try Rehearse.run(["run", "--report", "report", "scrolled.yaml"], in: folder).status == 1)
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/html_ids.py").path
        let check = try Rehearse.python([script, folder.appendingPathComponent("report").path])
        #expect(check.status == 0, "\(check.output)\(check.errorOutput)")
        let line = try #require(check.output.split(separator: "\n").first { $0.hasPrefix("scenarios/scrolled.html: ") })
        let references = try #require(line.firstMatch(of: /, (\d+) references/).flatMap { Int($0.1) })
        #expect(references >= 4, "reference, actual, diff and the frames each clip the row: \(line)")
    }

    /// The report in a real headless Chromium from file://: `report_browser.py`.
    @Test func theReportWorksInABrowser() throws {
        let (_, report) = try reportOfAFailingAndAPassingScenario()
        let screenshots = Rehearse.packageRoot.appendingPathComponent(".build/test-output/report")
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/report_browser.py").path
        let result = try Rehearse.python([script, report.path, screenshots.path, "moved", "2"])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("ok: the scrubber moved the drawn scene"))
        #expect(result.output.contains("ok: the onion range (Overlay: from the reference (0) to the actual picture (100)) lays"))
        #expect(result.output.contains("ok: the zoom makes the pictures 3 times as wide"))
        #expect(result.output.contains("ok: no request left file:// and the console has no error"))
    }
}
