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
                let said = "\(finding.node): \(finding.message) [\(finding.rule.rawValue)]"
                return TerminalText.escape(
                    finding.deviation.map { "\(finding.location): note: \(said), a deviation: \($0)" }
                        ?? "\(finding.location): warning: \(said)")
            }
            lines += result.staleDeviations.map { deviation in
                TerminalText.escape(
                    "\(deviation.location): warning: \(deviation.node): a stale deviation, no finding of its rule after any "
                        + "step; remove it [\(deviation.rule.rawValue)]")
            }
            lines += result.notes.map { TerminalText.escape("\(result.file): note: \($0)") }
        }
        let findings = results.flatMap(\.accessibilityFindings)
        let deviated = findings.count { $0.deviation != nil }
        let stale = results.reduce(0) { $0 + $1.staleDeviations.count }
        let withFindings = results.filter { !$0.accessibilityFindings.isEmpty }.count
        lines.append(
            "audit: \(findings.count) finding\(findings.count == 1 ? "" : "s")"
                + (deviated > 0 ? " (\(deviated) deviated)" : "") + " in \(withFindings) of \(results.count) "
                + "file\(results.count == 1 ? "" : "s")"
                + (stale > 0 ? ", \(stale) stale deviation\(stale == 1 ? "" : "s")" : "")
                + (notAudited(results) > 0 ? ", \(notAudited(results)) not audited" : ""))
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
                    var fields: Fields = [
                        "rule": .string(finding.rule.rawValue), "node": .string(finding.node),
                        "message": .string(finding.message),
                        "line": .int(Int64(finding.location.line)), "column": .int(Int64(finding.location.column)),
                        "time": .double(finding.time.seconds),
                    ]
                    if let reason = finding.deviation { fields["deviation"] = .string(reason) }
                    return .dictionary(fields)
                })
            if !result.staleDeviations.isEmpty {
                fields["staleDeviations"] = .array(
                    result.staleDeviations.map { deviation in
                        [
                            "rule": .string(deviation.rule.rawValue), "node": .string(deviation.node),
                            "reason": .string(deviation.reason), "line": .int(Int64(deviation.location.line)),
                            "column": .int(Int64(deviation.location.column)),
                        ]
                    })
            }
            if !result.notes.isEmpty { fields["notes"] = .array(result.notes.map { .string($0) }) }
            return .dictionary(fields)
        }
        let rules: [FieldValue] = AccessibilityRule.allCases.map {
            ["id": .string($0.rawValue), "summary": .string($0.summary), "source": .string($0.source)]
        }
        return FieldValue.dictionary(["files": .array(files), "rules": .array(rules)]).jsonText
    }

    /// JUnit XML as CI systems read it: one `testsuite`, one `testcase` per file, a `failure` per
    /// finding (its type the rule) and per stale deviation (type `stale-deviation`), an `error` for
    /// a file that could not be audited, and a `testcase` of its own, `skipped`, per deviated finding.
    public static func junit(_ results: [ScenarioResult]) -> String {
        let findings = results.flatMap(\.accessibilityFindings)
        let deviated = findings.count { $0.deviation != nil }
        let failures = findings.count - deviated + results.reduce(0) { $0 + $1.staleDeviations.count }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let counts = #"tests="\#(results.count + deviated)" failures="\#(failures)" errors="\#(notAudited(results))""#
        xml +=
            #"<testsuites name="rehearse audit" \#(counts)>"# + "\n"
            + #"  <testsuite name="accessibility" \#(counts) skipped="\#(deviated)">"# + "\n"
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
            for finding in result.accessibilityFindings where finding.deviation == nil {
                let message = "\(finding.node): \(finding.message)"
                let body = "\(finding.location) at \(finding.time) s: \(finding.rule.summary) (\(finding.rule.source))"
                xml +=
                    #"      <failure message="\#(XMLText.escape(message))" type="\#(finding.rule.rawValue)">\#(XMLText.escape(body))</failure>"#
                    + "\n"
            }
            for deviation in result.staleDeviations {
                let message = "\(deviation.node): a stale deviation from \(deviation.rule.rawValue), no finding after any step"
                xml +=
                    #"      <failure message="\#(XMLText.escape(message))" type="stale-deviation">\#(XMLText.escape("\(deviation.location)"))</failure>"#
                    + "\n"
            }
            xml += "    </testcase>\n"
            for finding in result.accessibilityFindings {
                guard let reason = finding.deviation else { continue }
                let name = "\(finding.node) [\(finding.rule.rawValue)] at \(finding.location)"
                xml +=
                    #"    <testcase name="\#(XMLText.escape(name))" classname="\#(XMLText.escape(result.file))">"# + "\n"
                    + #"      <skipped message="\#(XMLText.escape("deviation: \(reason)"))"/>"# + "\n" + "    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// 2 when a file could not be audited (invalid, or stopped at a budget), 1 when there are
    /// findings no deviation covers or stale deviations, 0 otherwise. A scenario's own failed
    /// expectations are `rehearse run`'s to report.
    public static func exitCode(_ results: [ScenarioResult]) -> Int32 {
        if notAudited(results) > 0 { return 2 }
        let failing = results.contains { result in
            !result.staleDeviations.isEmpty || result.accessibilityFindings.contains { $0.deviation == nil }
        }
        return failing ? 1 : 0
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
