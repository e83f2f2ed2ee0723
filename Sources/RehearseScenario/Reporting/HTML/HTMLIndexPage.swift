import RehearseCore
import RehearseSupport

/// The report's `index.html`: every scenario, failed and invalid ones first, with a search and a
/// status filter.
enum HTMLIndexPage {
    /// The index of `results`, whose pages are `pages` (``HTMLReport/pagePaths(of:)``).
    static func html(_ results: [ScenarioResult], pages: [String]) -> String {
        let summary = RunSummary(results)
        let listed = Array(zip(results, pages))
        let ordered =
            listed.filter { HTMLReport.status($0.0.outcome) != "passed" }
            + listed.filter { HTMLReport.status($0.0.outcome) == "passed" }
        var rows = ""
        for (result, page) in ordered {
            let status = HTMLReport.status(result.outcome)
            rows +=
                #"<tr data-status="\#(status)"><td class="\#(status)">\#(status.uppercased())</td>"#
                + #"<td><a href="\#(HTMLReport.escape(HTMLReport.href(page)))">\#(HTMLReport.escape(result.name))</a></td>"#
                + "<td>\(HTMLReport.escape(result.file))</td><td>\(result.simulatedTime) s</td>"
                + "<td>\(result.wallTime.millisecondsText) ms</td>"
                + "<td>\(HTMLReport.escape(firstProblem(result)))</td></tr>\n"
        }
        let body = """
            <h1>Rehearse: \(summary.passed) passed, \(summary.failed + summary.invalid + summary.stopped) failed</h1>
            <p><input type="search" data-filters="scenarios" placeholder="Search scenarios" aria-label="Search scenarios">
            <select id="status" aria-label="Status"><option value="">all</option><option value="failed">failed</option>
            <option value="invalid">invalid</option><option value="stopped">stopped</option><option value="passed">passed</option></select></p>
            <table id="scenarios"><thead><tr><th>status</th><th>scenario</th><th>file</th><th>simulated</th><th>wall</th><th>first problem</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            """
        return HTMLReport.page(title: "Rehearse report", body: body)
    }

    private static func firstProblem(_ result: ScenarioResult) -> String {
        switch result.outcome {
        case .passed: ""
        case .failed(let failures): failures.first.map { "\($0.subject): expected \($0.expected), actual \($0.actual)" } ?? ""
        case .invalid(let error), .stopped(let error): error.message
        }
    }
}
