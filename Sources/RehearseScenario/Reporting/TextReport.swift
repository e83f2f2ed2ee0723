/// The readable report: one line per scenario, and the details of what failed.
public struct TextReport: Sendable {
    /// Whether to colour PASS / FAIL (only on a terminal).
    public var colour: Bool

    public init(colour: Bool) {
        self.colour = colour
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The lines for one scenario; what came from the file has its control characters escaped.
    public func render(_ result: ScenarioResult) -> String {
        let timing = "(\(result.simulatedTime) s simulated, \(result.wallTime.millisecondsText) ms)"
        let title = TerminalText.escape("\(result.file)  \(result.name)")
        switch result.outcome {
        case .passed:
            return "\(paint("PASS", "32")) \(title)  \(timing)"
        case .invalid(let error):
            return "\(paint("INVALID", "31;1")) \(error)"
        case .stopped(let error):
            return "\(paint("STOPPED", "31;1")) \(title)  \(timing)\n  \(error)"
        case .failed(let failures):
            var lines = ["\(paint("FAIL", "31;1")) \(title)  \(timing)"]
            for failure in failures {
                var details = [
                    "  \(failure.location): expectation failed at \(failure.time) s: \(failure.subject)",
                    "    expected: \(failure.expected)",
                    "    actual:   \(failure.actual)",
                ]
                if !failure.recentEvents.isEmpty {
                    details.append("    last events:")
                    details += failure.recentEvents.map { "      \($0)" }
                }
                lines += details.map { TerminalText.escape($0) }
            }
            return lines.joined(separator: "\n")
        }
    }

}
