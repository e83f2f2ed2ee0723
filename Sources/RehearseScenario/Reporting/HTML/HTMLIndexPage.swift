import RehearseCore

/// The report's `index.html`: every scenario, failed and invalid ones first, with a search and a
/// status filter.
enum HTMLIndexPage {
    /// The index of `scenarios`, each a result and the path of its page.
    static func html(_ scenarios: [(result: ScenarioResult, page: String)]) -> String {
        let summary = RunSummary(scenarios.map(\.result))
        let failedFirst = scenarios.filter { HTMLReport.status($0.result.outcome) != "passed" }
            + scenarios.filter { HTMLReport.status($0.result.outcome) == "passed" }
        var rows = ""
        for (result, page) in failedFirst {
            let status = HTMLReport.status(result.outcome)
            rows += #"<tr data-status="\#(status)"><td class="\#(status)">\#(status.uppercased())</td>"#
                + #"<td><a href="\#(HTMLReport.escape(page))">\#(HTMLReport.escape(result.name))</a></td>"#
                + "<td>\(HTMLReport.escape(result.file))</td><td>\(result.simulatedTime) s</td>"
                + "<td>\(result.wallTime.millisecondsText) ms</td>"
                + "<td>\(HTMLReport.escape(firstProblem(result)))</td></tr>\n"
        }
        let body = """
            <h1>Rehearse: \(summary.passed) passed, \(summary.failed + summary.invalid) failed</h1>
            <p><input type="search" data-filters="scenarios" placeholder="Search scenarios" aria-label="Search scenarios">
            <select id="status" aria-label="Status"><option value="">all</option><option value="failed">failed</option>
            <option value="invalid">invalid</option><option value="passed">passed</option></select></p>
            <table id="scenarios"><thead><tr><th>status</th><th>scenario</th><th>file</th><th>simulated</th><th>wall</th><th>first problem</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            """
        return HTMLReport.page(title: "Rehearse report", body: body)
    }

    private static func firstProblem(_ result: ScenarioResult) -> String {
        switch result.outcome {
        case .passed: ""
        case .failed(let failures): failures.first.map { "\($0.subject): expected \($0.expected)" } ?? ""
        case .invalid(let error): error.message
        }
    }
}
