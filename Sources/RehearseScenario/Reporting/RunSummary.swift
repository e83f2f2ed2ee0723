/// The totals of a run and the exit code they call for.
public struct RunSummary: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var invalid = 0
    /// Runs stopped at a budget.
    public var stopped = 0
    /// Files left unrun because a run before them failed (`run --fail-fast`).
    public var notRun = 0

    public init(_ results: [ScenarioResult], notRun: Int = 0) {
        self.notRun = notRun
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .invalid: invalid += 1
            case .stopped: stopped += 1
            }
        }
    }

    /// 0 when everything passed, 1 when an expectation failed, 2 when a file was invalid or a run
    /// stopped at a budget.
    public var exitCode: Int32 { invalid + stopped > 0 ? 2 : failed > 0 ? 1 : 0 }

    /// `scenarios: 3 passed, 1 failed` (invalid files and runs stopped at a budget count as
    /// failed; a line more says how many of each, and one how many were not run).
    public var line: String {
        var line = "scenarios: \(passed) passed, \(failed + invalid + stopped) failed"
        if invalid > 0 { line += "\n(\(invalid) of them invalid: nothing ran)" }
        if stopped > 0 { line += "\n(\(stopped) of them stopped at a budget: they ran up to it)" }
        if notRun > 0 { line += "\n\(notRun) not run: --fail-fast stopped at the first that did not pass" }
        return line
    }
}
