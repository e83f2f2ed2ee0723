import Foundation
import IntegrationTestSupport
import Testing

/// The password form, then a keyboard expectation, a tap and a wait.
private func form(name: String, usernameY: Double) -> String {
    passwordForm(
        name: name, usernameY: usernameY, more: ["expect: {keyboard.presentation.frame.y: 352}", "tap: username", "wait: 0.3"])
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
        let failingRow = try #require(index.range(of: "scenarios/moved.html"))
        let passingRow = try #require(index.range(of: "scenarios/unchanged.html"))
        #expect(failingRow.lowerBound < passingRow.lowerBound)
        #expect(index.contains("moved &lt;b&gt;field&lt;/b&gt;") && !index.contains("<b>field"))
        // The failing page: both sides, the three pictures, a timeline frame a step, the events.
        #expect(moved.contains("username: frame [20, 260, 280, 30] in the reference, [20, 266, 280, 30] now"))
        for picture in ["reference", "actual", "diff"] { #expect(moved.contains(#"data-picture="\#(picture)""#)) }
        // What rehearse audit would find (issue 41): the form's 30-point fields, at the first step.
        #expect(moved.contains(#"<h2 id="accessibility">Accessibility</h2>"#))
        #expect(
            moved.contains("<td>username</td><td>touch-target</td><td>it is 280 × 30 pt on screen, less than 44 × 44 pt</td>"),
            "\(moved)")
        // Issue 36: the command that accepts the pictures, an overlay and a zoom; the index's
        // first problem has both sides.
        #expect(moved.contains("<pre data-accept>rehearse run --update-pictures ./moved.yaml</pre>"))
        #expect(moved.contains(#"<input type="range" class="onion""#) && moved.contains(#"class="zoom""#))
        #expect(
            index.contains(
                "<td>picture &apos;typed&apos;: expected the drawing of __pictures__/moved/typed.json, actual username: frame [20, 260"
            ))
        // Seven steps, four scenes: the two expectations and the last wait change nothing on the screen.
        #expect(moved.components(separatedBy: #"<div class="frame""#).count - 1 == 4)
        #expect(moved.components(separatedBy: "<tr data-frame=").count - 1 == 7)
        // The number an expect step checks is plotted over the run.
        #expect(moved.contains("<h2>Plots</h2>") && moved.contains(">keyboard.presentation.frame.y</text>"))
        #expect(
            moved.contains(#"<tr data-frame="2" class="failed">"#), "the expect-picture step is marked, on the scene before it")
        #expect(moved.contains("Events ("))
        #expect(!unchanged.contains("Failures"))
        // Self-contained: nothing is fetched, and the one script runs by its hash only.
        for page in [index, moved, unchanged] {
            #expect(
                !page.contains("src=") && !page.contains(#"href="http"#) && !page.contains("url(") && !page.contains("@import"))
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
        #expect(
            try Rehearse.junitProblems(result.output, besides: folder.appendingPathComponent("moved.yaml"), named: "junit.xml")
                == nil)
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
        // The drag's frames clip the row too, each under its own id (issue 36).
        let page = try String(contentsOf: folder.appendingPathComponent("report/scenarios/scrolled.html"), encoding: .utf8)
        #expect(
            page.contains(#"<figure class="gesture-frames" data-frames="11">"#)
                && page.contains(#"clip-path="url(#gesture0-f0-clip2)""#))
    }

    /// Issue 36: a gesture step shows on the timeline as its frames with its fingers drawn: a drag
    /// on a node (0.3 s: 7 frames) and a pinch (0.25 s: 6), and no strip for the tap or the wait.
    /// A node's text and a scenario's name with markup are text in the frames and their captions;
    /// the page is checked as a browser shows it (`report_gestures_browser.py`).
    @Test func aGestureStepShowsItsFramesWithItsFingers() throws {
        let file = try Rehearse.scenario(
            """
            name: "gestures <script>alert(1)</script>"
            device: iphone-5
            scene:
              nodes:
                - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 3000]}
                - {id: row, kind: button, parent: list, frame: [20, 300, 280, 44], text: "row <script>alert(2)</script>"}
            steps:
              - tap: row
              - drag: {on: row, by: [0, -120], duration: 0.3}
              - pinch: {center: [160, 284], scale: 2, duration: 0.25}
              - wait: 0.5

            """, named: "gestures.yaml")
        let folder = file.deletingLastPathComponent()
        let result = try Rehearse.run(["run", "--report", "report", "gestures.yaml"], in: folder)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let page = folder.appendingPathComponent("report/scenarios/gestures.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: #"<tr class="gesture">"#).count - 1 == 2)
        #expect(
            html.contains(
                #"<figure class="gesture-frames" data-frames="7"><figcaption>drag on {id: &quot;row&quot;} over 0.3 s: "#
                    + "7 frames from 0 s to 0.3 s"))
        #expect(
            html.contains(
                #"<figure class="gesture-frames" data-frames="6"><figcaption>touches: 34 over 0.25 s: 6 frames from 0.3 s"#))
        #expect(html.contains("<title>t = 0.15 s: finger 0 at (160, 262)</title>"))
        #expect(html.contains(#"<g data-finger="0" data-phase="lifting" data-x="160" data-y="202">"#))
        #expect(html.contains("<title>t = 0.55 s: finger 0 lifting at (60, 284), finger 1 lifting at (260, 284)</title>"))
        #expect(
            html.components(separatedBy: "<script").count - 1 == 1 && html.contains("row &lt;script&gt;alert(2)&lt;/script&gt;"))
        let ids = try Rehearse.python([
            Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/html_ids.py").path,
            folder.appendingPathComponent("report").path,
        ])
        #expect(ids.status == 0, "\(ids.output)\(ids.errorOutput)")

        let screenshots = Rehearse.packageRoot.appendingPathComponent(".build/test-output/report")
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/report_gestures_browser.py").path
        let browser = try Rehearse.python([script, page.path, screenshots.path])
        #expect(browser.status == 0, "\(browser.output)\(browser.errorOutput)")
        #expect(browser.output.contains("ok: 2 gesture strips in the timeline"))
        #expect(
            browser.output.contains("7 frames titled, 7 fingers drawn")
                && browser.output.contains("6 frames titled, 12 fingers drawn"))
        #expect(browser.output.contains("frame: t = 0.3 s: finger 0 lifting at (160, 202)\n"))
        #expect(browser.output.contains("ok: the console has no error"))
        #expect(browser.output.contains("ok: axe-core finds no violation on the page with its strips"))
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
        #expect(result.output.contains("ok: axe-core finds no violation on the 3 pages"))
    }
}
