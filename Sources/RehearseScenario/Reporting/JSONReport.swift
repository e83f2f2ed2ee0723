import RehearseCore

/// The machine-readable report: `{"scenarios": [...], "passed": n, "failed": n, "invalid": n}`.
public enum JSONReport {
    public static func render(_ results: [ScenarioResult]) -> String {
        let summary = RunSummary(results)
        let report: Fields = [
            "scenarios": .array(results.map(fields)),
            "passed": .int(Int64(summary.passed)),
            "failed": .int(Int64(summary.failed)),
            "invalid": .int(Int64(summary.invalid)),
            "stopped": .int(Int64(summary.stopped)),
        ]
        return FieldValue.dictionary(report).jsonText
    }

    /// One JSON object per scenario, each on its own line (JSON Lines): reports of several runs,
    /// such as shards, merge by concatenation.
    public static func lines(_ results: [ScenarioResult]) -> [String] {
        results.map { fields($0).jsonText }
    }

    private static func fields(_ result: ScenarioResult) -> FieldValue {
        var fields: Fields = [
            "file": .string(result.file), "name": .string(result.name),
            "simulatedTime": .double(result.simulatedTime.seconds),
        ]
        switch result.outcome {
        case .passed:
            fields["status"] = "passed"
        case .stopped(let error):
            fields["status"] = "stopped"
            fields["error"] = ["message": .string(error.message), "location": location(error.location)]
        case .invalid(let error):
            fields["status"] = "invalid"
            fields["error"] = ["message": .string(error.message), "location": location(error.location)]
            if !error.alsoFound.isEmpty {
                fields["otherErrors"] = .array(
                    error.alsoFound.map { ["message": .string($0.message), "location": location($0.location)] })
            }
        case .failed(let failures):
            fields["status"] = "failed"
            fields["failures"] = .array(
                failures.map { failure in
                    [
                        "subject": .string(failure.subject), "expected": .string(failure.expected),
                        "actual": .string(failure.actual), "time": .double(failure.time.seconds),
                        "location": location(failure.location),
                        "recentEvents": .array(failure.recentEvents.map(FieldValue.string)),
                    ]
                })
        }
        return .dictionary(fields)
    }

    private static func location(_ location: SourceLocation) -> FieldValue {
        ["file": .string(location.file), "line": .int(Int64(location.line)), "column": .int(Int64(location.column))]
    }
}
