import Foundation
import RehearseCore
import RehearseSupport

/// `rehearse run --report DIR`: a static site that needs nothing else (no network, no other file),
/// opened from `file://` or as a CI artifact. `index.html` lists every scenario, failures first,
/// with a search and a status filter; each scenario has a page of its own under `scenarios/`
/// (only the index is loaded first, so large suites stay usable): its failures with both sides, the
/// golden pictures that did not match (reference, actual, diff), a timeline of the scene after each
/// step with a scrubber, the plots, and its events with a filter. All text is escaped; typed text
/// appears only as the trace and the pictures carry it (secure text redacted or as dots).
public enum HTMLReport {
    /// The most events a scenario's page lists (the count of the rest is said).
    public static let maximumEvents = 5_000
    /// The longest event line a page shows, in UTF-8 bytes; a longer one is cut, with `…`.
    public static let maximumEventLineBytes = 2_000

    /// The first ``maximumEvents`` events of a run other than `tick`s (each line cut to
    /// ``maximumEventLineBytes``: an events list holds at most 10 MB, whatever the events carry),
    /// and how many events and ticks it delivered, as they arrive
    /// (``ScenarioRunner/run(file:delivered:)``). The display link's ticks (one a frame while
    /// anything moves) are counted, not listed: a run's trace has them all.
    public struct Events: Sendable {
        public private(set) var lines: [String] = []
        public private(set) var count = 0
        public private(set) var ticks = 0

        public init() {}

        /// Counts an event, keeping its trace line while fewer than ``HTMLReport/maximumEvents`` are kept.
        public mutating func add(_ event: DeliveredEvent) {
            count += 1
            if case .tick = event.event {
                ticks += 1
                return
            }
            guard lines.count < HTMLReport.maximumEvents else { return }
            let line = event.traceLine
            guard line.utf8.count > HTMLReport.maximumEventLineBytes else { return lines.append(line) }
            lines.append(line.prefix(utf8Bytes: HTMLReport.maximumEventLineBytes) + "…")
        }
    }

    /// One scenario's run and its events.
    public struct Entry: Sendable {
        public var result: ScenarioResult
        public var events: Events

        public init(result: ScenarioResult, events: Events) {
            self.result = result
            self.events = events
        }
    }

    /// The file a report's folder holds: a folder that holds anything else and not this, rehearse
    /// did not write, and it writes no report there.
    public static let marker = ".rehearse-report"

    /// Refuses `folder` as ``write(_:to:)`` would (a symbolic link, or a folder that holds files
    /// and no ``marker``) and writes nothing: a command checks before it runs anything.
    public static func check(folder: String) throws(OutputError) {
        try OutputFolder.checkOwned(folder, marker: marker)
    }

    /// Writes the report of `entries` into `folder` (created if needed; refused when it is a
    /// symbolic link, or holds files and no ``marker``) through ``OutputFolder``, so nothing inside
    /// it is followed; returns the index's path. Nothing is written when a page would replace one
    /// of the scenario files (`--report DIR DIR/index.html`) or a folder on the way to a page is a
    /// symbolic link (`DIR/scenarios`).
    @discardableResult
    public static func write(_ entries: [Entry], to folder: String) throws(OutputError) -> String {
        try check(folder: folder)
        let files = files(entries)
        let inputs = Set(entries.compactMap { FileIdentity(path: $0.result.file) })
        for (path, _) in files {
            let full = (folder as NSString).appendingPathComponent(path)
            if let identity = FileIdentity(path: full), inputs.contains(identity) { throw .sameAsInput(full) }
        }
        let output = try OutputFolder(owned: folder, marker: marker, writing: files.map(\.path))
        var index = ""
        for (path, text) in files {
            let written = try output.write(Data(text.utf8), to: path, existing: .removingFirst)
            if path == "index.html" { index = written }
        }
        return index
    }

    /// The report's files, as paths relative to its folder and their text.
    public static func files(_ entries: [Entry]) -> [(path: String, text: String)] {
        let pages = pagePaths(of: entries.map(\.result.file))
        return [("index.html", HTMLIndexPage.html(entries.map(\.result), pages: pages))]
            + zip(entries, pages).map { entry, page in (page, HTMLScenarioPage.html(entry, page: page)) }
    }

    /// A whole page: `title`, the style, `body`, the script.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentPolicy)">
        <title>\(escape(title))</title>
        <style>\(HTMLReportStyle.css)</style></head>
        <body>
        <main>
        \(body)
        </main>
        <script>\(HTMLReportStyle.script)</script>
        </body></html>

        """
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// Nothing from anywhere (no network, no other file); the page's style; the one script, named
    /// by its hash, so that no other script runs whatever text a page holds.
    static let contentPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src '\(scriptHash)'"

    /// `sha256-BASE64` of the script, as a content policy names it.
    static let scriptHash = "sha256-" + Data(SHA256.digest(Array(HTMLReportStyle.script.utf8))).base64EncodedString()

    /// `passed`, `failed`, `invalid` or `stopped`: the class and filter value of an outcome.
    static func status(_ outcome: ScenarioResult.Outcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .failed: "failed"
        case .invalid: "invalid"
        case .stopped: "stopped"
        }
    }
}
