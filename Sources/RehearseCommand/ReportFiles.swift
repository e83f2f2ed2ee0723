import Foundation
import RehearseScenario

/// Writes `rehearse run --report DIR`: the HTML report's pages (``HTMLReport``) through
/// ``OutputFolder``, so nothing inside the folder is followed.
enum ReportFiles {
    /// The first events of one run and how many there were, as its trace lines arrive.
    struct Events: Sendable {
        private(set) var lines: [String] = []
        private(set) var count = 0

        mutating func add(_ line: String) {
            count += 1
            if lines.count < HTMLReport.maximumEvents { lines.append(line) }
        }
    }

    /// Writes the report of `runs` into `folder`; returns the index's path.
    static func write(_ runs: [(result: ScenarioResult, events: Events)], to folder: String) throws -> String {
        let output = try OutputFolder(creating: folder)
        let entries = runs.map { HTMLReport.Entry(result: $0.result, events: $0.events.lines, eventCount: $0.events.count) }
        var index = ""
        for (path, text) in HTMLReport.files(entries) {
            let written = try output.write(Data(text.utf8), to: path)
            if path == "index.html" { index = written }
        }
        return index
    }
}
