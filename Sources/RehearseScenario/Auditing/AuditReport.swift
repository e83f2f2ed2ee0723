import RehearseCore
import RehearseSupport

/// What `rehearse audit` prints: each finding at the step after which it appeared, as a compiler
/// prints a warning, or the findings as JSON; and the exit status.
public enum AuditReport {
    /// `FILE:LINE:COLUMN: warning: NODE: MESSAGE [RULE]` a finding; a file that did not run, its
    /// error; then a summary line and the source of each rule broken.
    public static func text(_ results: [ScenarioResult]) -> String {
        var lines: [String] = []
        for result in results {
            switch result.outcome {
            case .invalid(let error), .stopped(let error): lines.append(TerminalText.escape("\(error)"))
            case .passed, .failed: break
            }
            lines += result.accessibilityFindings.map { finding in
                TerminalText.escape(
                    "\(finding.location): warning: \(finding.node): \(finding.message) [\(finding.rule.rawValue)]")
            }
            lines += result.notes.map { TerminalText.escape("\(result.file): note: \($0)") }
        }
        let findings = results.flatMap(\.accessibilityFindings)
        let withFindings = results.filter { !$0.accessibilityFindings.isEmpty }.count
        lines.append(
            "audit: \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(withFindings) of \(results.count) "
                + "file\(results.count == 1 ? "" : "s")" + (notAudited(results) > 0 ? ", \(notAudited(results)) not audited" : "")
        )
        for rule in AccessibilityRule.allCases where findings.contains(where: { $0.rule == rule }) {
            lines.append("  \(rule.rawValue): \(rule.summary) (\(rule.source))")
        }
        return lines.joined(separator: "\n")
    }

    /// `{"files": [{"file", "name", "status", "findings": [...]}], "rules": [...]}`.
    public static func json(_ results: [ScenarioResult]) -> String {
        let files: [FieldValue] = results.map { result in
            var fields: Fields = ["file": .string(result.file), "name": .string(result.name)]
            switch result.outcome {
            case .invalid(let error), .stopped(let error):
                fields["status"] = "not audited"
                fields["error"] = .string(error.message)
            case .passed, .failed:
                fields["status"] = "audited"
            }
            fields["findings"] = .array(
                result.accessibilityFindings.map { finding in
                    [
                        "rule": .string(finding.rule.rawValue), "node": .string(finding.node),
                        "message": .string(finding.message),
                        "line": .int(Int64(finding.location.line)), "column": .int(Int64(finding.location.column)),
                        "time": .double(finding.time.seconds),
                    ]
                })
            if !result.notes.isEmpty { fields["notes"] = .array(result.notes.map { .string($0) }) }
            return .dictionary(fields)
        }
        let rules: [FieldValue] = AccessibilityRule.allCases.map {
            ["id": .string($0.rawValue), "summary": .string($0.summary), "source": .string($0.source)]
        }
        return FieldValue.dictionary(["files": .array(files), "rules": .array(rules)]).jsonText
    }

    /// JUnit XML as CI systems read it: one `testsuite`, one `testcase` per file, a `failure` per
    /// finding (its type the rule) and an `error` for a file that could not be audited.
    public static func junit(_ results: [ScenarioResult]) -> String {
        let findings = results.flatMap(\.accessibilityFindings).count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let counts = #"tests="\#(results.count)" failures="\#(findings)" errors="\#(notAudited(results))""#
        xml +=
            #"<testsuites name="rehearse audit" \#(counts)>"# + "\n"
            + #"  <testsuite name="accessibility" \#(counts) skipped="0">"# + "\n"
        for result in results {
            xml += #"    <testcase name="\#(XMLText.escape(result.name))" classname="\#(XMLText.escape(result.file))">"# + "\n"
            if case .invalid(let error) = result.outcome {
                xml +=
                    #"      <error message="\#(XMLText.escape(error.message))" type="invalid">\#(XMLText.escape(error.description))</error>"#
                    + "\n"
            } else if case .stopped(let error) = result.outcome {
                xml +=
                    #"      <error message="\#(XMLText.escape(error.message))" type="stopped">\#(XMLText.escape(error.description))</error>"#
                    + "\n"
            }
            for finding in result.accessibilityFindings {
                let message = "\(finding.node): \(finding.message)"
                let body = "\(finding.location) at \(finding.time) s: \(finding.rule.summary) (\(finding.rule.source))"
                xml +=
                    #"      <failure message="\#(XMLText.escape(message))" type="\#(finding.rule.rawValue)">\#(XMLText.escape(body))</failure>"#
                    + "\n"
            }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// 2 when a file could not be audited (invalid, or stopped at a budget), 1 when there are
    /// findings, 0 otherwise. A scenario's own failed expectations are `rehearse run`'s to report.
    public static func exitCode(_ results: [ScenarioResult]) -> Int32 {
        notAudited(results) > 0 ? 2 : results.contains { !$0.accessibilityFindings.isEmpty } ? 1 : 0
    }

    private static func notAudited(_ results: [ScenarioResult]) -> Int {
        results.count { result in
            switch result.outcome {
            case .invalid, .stopped: true
            case .passed, .failed: false
            }
        }
    }
}
