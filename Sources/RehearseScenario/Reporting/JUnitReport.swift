/// JUnit XML as CI systems read it: one `testsuite`, one `testcase` per scenario file, a `failure`
/// per failed expectation and an `error` for an invalid file.
public enum JUnitReport {
    public static func render(_ results: [ScenarioResult]) -> String {
        let summary = RunSummary(results)
        let total = results.reduce(0.0) { $0 + $1.wallTime.inSeconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="rehearse" tests="\#(results.count)" failures="\#(summary.failed)" errors="\#(summary.invalid)" time="\#(total)">"# + "\n"
        xml += #"  <testsuite name="scenarios" tests="\#(results.count)" failures="\#(summary.failed)" errors="\#(summary.invalid)" skipped="0" time="\#(total)">"# + "\n"
        for result in results {
            let attributes = #"name="\#(escape(result.name))" classname="\#(escape(result.file))" time="\#(result.wallTime.inSeconds)""#
            switch result.outcome {
            case .passed:
                xml += "    <testcase \(attributes)/>\n"
            case .invalid(let error):
                xml += "    <testcase \(attributes)>\n"
                xml += #"      <error message="\#(escape(error.message))" type="invalid">\#(escape(error.description))</error>"# + "\n"
                xml += "    </testcase>\n"
            case .failed(let failures):
                xml += "    <testcase \(attributes)>\n"
                for failure in failures {
                    let message = "\(failure.subject): expected \(failure.expected), actual \(failure.actual)"
                    let body = "\(failure.location) at \(failure.time) s\n" + failure.recentEvents.joined(separator: "\n")
                    xml += #"      <failure message="\#(escape(message))" type="expectation">\#(escape(body))</failure>"# + "\n"
                }
                xml += "    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// Escapes text for XML attributes and content, dropping characters XML 1.0 cannot hold.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
