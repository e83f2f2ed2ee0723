/// The totals of a run and the exit code they call for.
public struct RunSummary: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var invalid = 0

    public init(_ results: [ScenarioResult]) {
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .invalid: invalid += 1
            }
        }
    }

    /// 0 when everything passed, 1 when an expectation failed, 2 when a file was invalid.
    public var exitCode: Int32 { invalid > 0 ? 2 : failed > 0 ? 1 : 0 }

    /// `scenarios: 3 passed, 1 failed` (invalid files count as failed; a second line says how many).
    public var line: String {
        var line = "scenarios: \(passed) passed, \(failed + invalid) failed"
        if invalid > 0 { line += "\n(\(invalid) of them invalid: nothing ran)" }
        return line
    }
}
