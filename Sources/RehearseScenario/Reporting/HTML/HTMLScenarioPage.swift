import RehearseCore
import RehearseSupport

/// One scenario's page of the report: outcome, failures with both sides, golden pictures that did
/// not match (reference, actual, diff, an overlay and a zoom, and the command that accepts them),
/// the timeline (the scene after each step, a scrubber, the steps with the failing ones marked, a
/// gesture step's frames with its fingers drawn), plots, and the events with a filter. Each
/// picture's clip ids start with a prefix of its own (`failure0`, `reference0`, `actual0`,
/// `diff0`, `frame0`, `gesture0-f0`, ...), so no id is given twice in a page.
enum HTMLScenarioPage {
    /// The page of `entry`, written at `page` (relative to the report's folder).
    static func html(_ entry: HTMLReport.Entry, page: String) -> String {
        let result = entry.result
        let status = HTMLReport.status(result.outcome)
        let depth = page.split(separator: "/").count - 1
        var body = #"<p><a href="\#(String(repeating: "../", count: depth))index.html">All scenarios</a></p>"# + "\n"
        body += #"<h1><span class="\#(status)">\#(status.uppercased())</span> \#(HTMLReport.escape(result.name))</h1>"# + "\n"
        body +=
            "<p>\(HTMLReport.escape(result.file)): \(result.simulatedTime) s simulated, \(result.wallTime.millisecondsText) ms</p>\n"
        switch result.outcome {
        case .passed: break
        case .invalid(let error): body += "<h2>Invalid</h2>\n<pre>\(HTMLReport.escape(error.description))</pre>\n"
        case .stopped(let error): body += "<h2>Stopped at a budget</h2>\n<pre>\(HTMLReport.escape(error.description))</pre>\n"
        case .failed(let failures): body += self.failures(failures)
        }
        body += pictures(result.pictureMismatches, file: result.file)
        body += accessibility(result.accessibilityFindings)
        body += timeline(result)
        if !result.plots.isEmpty { body += "<h2>Plots</h2>\n" + SVGRenderer.plot(result.plots) }
        body += events(entry)
        return HTMLReport.page(title: "\(status.uppercased()) \(result.name)", body: body)
    }

    private static func failures(_ failures: [Failure]) -> String {
        var html = "<h2 id=\"failures\">Failures</h2>\n"
        for (number, failure) in failures.enumerated() {
            html +=
                #"<div class="failure"><p><b>\#(HTMLReport.escape(failure.subject))</b> at \#(failure.time) s, "#
                + "\(HTMLReport.escape(failure.location.description))</p>\n"
                + "<pre>expected: \(HTMLReport.escape(failure.expected))\nactual:   \(HTMLReport.escape(failure.actual))</pre>\n"
            if !failure.recentEvents.isEmpty {
                html += "<p>last events:</p><pre>\(HTMLReport.escape(failure.recentEvents.joined(separator: "\n")))</pre>\n"
            }
            if let scene = failure.scene {
                html +=
                    "<figure data-picture=\"failure\"><figcaption>the scene then</figcaption>\(SVGRenderer.screen(scene, idPrefix: "failure\(number)"))</figure>\n"
            }
            html += "</div>\n"
        }
        return html
    }

    /// The golden pictures of `file` that did not match: the command that accepts them, and each
    /// with its reference, the actual picture and the diff; where there is a reference, controls
    /// that lay the actual picture over it (an onion skin: a range sets how much of each shows)
    /// and zoom them.
    private static func pictures(_ mismatches: [PictureMismatch], file: String) -> String {
        guard !mismatches.isEmpty else { return "" }
        var html =
            "<h2 id=\"pictures\">Golden pictures that did not match</h2>\n"
            + "<p>If the actual pictures are right, accept them (record them as the references):</p>\n"
            + "<pre data-accept>\(HTMLReport.escape(PictureReferences.updateCommand(for: file)))</pre>\n"
        for (number, mismatch) in mismatches.enumerated() {
            html += "<h3>\(HTMLReport.escape(mismatch.name))</h3>\n"
            if mismatch.reference != nil {
                html +=
                    #"<p class="picture-tools"><label><input type="checkbox" class="overlay"> overlay</label> "#
                    + #"<input type="range" class="onion" min="0" max="100" value="50" "#
                    + #"aria-label="Overlay: from the reference (0) to the actual picture (100)"> "#
                    + #"<label>zoom <input type="range" class="zoom" min="1" max="8" step="0.5" value="1" aria-label="Zoom"></label></p>"#
                    + "\n"
            }
            html += "<div class=\"pictures\">\n"
            if let reference = mismatch.reference {
                html +=
                    "<figure data-picture=\"reference\"><figcaption>reference</figcaption>\(SVGRenderer.screen(reference.snapshot, idPrefix: "reference\(number)"))</figure>\n"
            }
            html +=
                "<figure data-picture=\"actual\"><figcaption>actual</figcaption>\(SVGRenderer.screen(mismatch.actual, idPrefix: "actual\(number)"))</figure>\n"
            html +=
                "<figure data-picture=\"diff\"><figcaption>diff</figcaption>\(SVGRenderer.diff(mismatch, idPrefix: "diff\(number)"))</figure>\n</div>\n"
        }
        return html
    }

    /// What broke the accessibility rules (`rehearse audit`'s), each at the step after which it
    /// appeared, and the rules' sources.
    private static func accessibility(_ findings: [AccessibilityFinding]) -> String {
        guard !findings.isEmpty else { return "" }
        var html =
            "<h2 id=\"accessibility\">Accessibility</h2>\n<table id=\"accessibility-findings\"><thead><tr><th>line</th>"
            + "<th>node</th><th>rule</th><th>finding</th></tr></thead><tbody>\n"
        for finding in findings {
            html +=
                "<tr><td>\(finding.location.line)</td><td>\(HTMLReport.escape(finding.node))</td><td>\(finding.rule.rawValue)</td>"
                + "<td>\(HTMLReport.escape(finding.message))"
                + (finding.deviation.map { " (a deviation: \(HTMLReport.escape($0)))" } ?? "") + "</td></tr>\n"
        }
        html += "</tbody></table>\n<ul>\n"
        for rule in AccessibilityRule.allCases where findings.contains(where: { $0.rule == rule }) {
            html += "<li>\(rule.rawValue): \(HTMLReport.escape(rule.summary)) (\(HTMLReport.escape(rule.source)))</li>\n"
        }
        return html + "</ul>\n"
    }

    private static func timeline(_ result: ScenarioResult) -> String {
        let pictures = result.stepPictures
        guard !pictures.isEmpty else { return "" }
        let failedLines = Set(failureLines(result))
        // A frame for each scene that differs from the one before: steps that change nothing
        // (expectations) show the frame of the step before them.
        var frames = ""
        var rows = ""
        var frameCount = 0
        var strips = 0
        var shown: SceneSnapshot?
        for step in pictures {
            if shown.map({ !step.picture.drawsLike($0) }) ?? true {
                let label = "t = \(step.picture.time) s, line \(step.location.line): \(step.summary)"
                frames +=
                    #"<div class="frame" data-label="\#(HTMLReport.escape(label))"\#(frameCount == 0 ? "" : " hidden")>"#
                    + SVGRenderer.screen(step.picture, idPrefix: "frame\(frameCount)") + "</div>\n"
                frameCount += 1
                shown = step.picture
            }
            let failed = failedLines.contains(step.location.line)
            rows +=
                #"<tr data-frame="\#(frameCount - 1)"\#(failed ? #" class="failed""# : "")><td>\#(step.picture.time) s</td>"#
                + "<td>\(step.location.line)</td><td>\(HTMLReport.escape(step.summary))</td></tr>\n"
            if !step.frames.isEmpty {
                rows += gestureFrames(step, idPrefix: "gesture\(strips)-f")
                strips += 1
            }
        }
        return """
            <h2 id="timeline">Timeline</h2>
            <p><input type="range" id="scrub" min="0" max="\(frameCount - 1)" value="0" aria-label="Step">
            <span id="scrub-label"></span></p>
            \(frames)<table id="steps"><thead><tr><th>time</th><th>line</th><th>step</th></tr></thead><tbody>
            \(rows)</tbody></table>

            """
    }

    /// A gesture step's frames, in a row of their own under its row: a strip of the scene across
    /// the step, its fingers drawn, each frame titled with its time and where the fingers are.
    private static func gestureFrames(_ step: StepPicture, idPrefix: String) -> String {
        let times = step.frames.map(\.picture.time)
        let caption =
            "\(step.summary): \(times.count) frames from \(times.first ?? .zero) s to \(times.last ?? .zero) s "
            + "(a filled disc: a finger down; a dashed ring: a finger lifting)"
        return #"<tr class="gesture"><td colspan="3"><figure class="gesture-frames" data-frames="\#(times.count)">"#
            // The strip scrolls: focusable, so that a keyboard scrolls it too.
            + "<figcaption>\(HTMLReport.escape(caption))</figcaption>\n<div class=\"strip\" tabindex=\"0\" role=\"region\" "
            + "aria-label=\"\(HTMLReport.escape(step.summary)): frames\">"
            + SVGRenderer.filmstrip(step.frames, idPrefix: idPrefix) + "</div></figure></td></tr>\n"
    }

    /// The lines of the steps that failed (each failure's line; an `expect` on several lines is
    /// marked at the step it belongs to by the runner's location).
    private static func failureLines(_ result: ScenarioResult) -> [Int] {
        guard case .failed(let failures) = result.outcome else { return [] }
        let stepLines = result.stepPictures.map(\.location.line)
        return failures.map { failure in stepLines.last { $0 <= failure.location.line } ?? failure.location.line }
    }

    private static func events(_ entry: HTMLReport.Entry) -> String {
        let events = entry.events
        guard events.count > 0 else { return "" }
        let rows = events.lines.map { "<tr><td><code>\(HTMLReport.escape($0))</code></td></tr>" }.joined(separator: "\n")
        let unlisted = events.count - events.ticks - events.lines.count
        let more =
            (unlisted > 0 ? "<p>and \(unlisted) more events</p>\n" : "")
            + (events.ticks > 0
                ? "<p>\(events.ticks) <code>tick</code> events (one a display frame) are counted, not listed</p>\n" : "")
        return """
            <h2 id="events">Events (\(events.count))</h2>
            <p><input type="search" data-filters="event-list" placeholder="Filter events" aria-label="Filter events"></p>
            <table id="event-list"><tbody>
            \(rows)
            </tbody></table>
            \(more)
            """
    }
}
