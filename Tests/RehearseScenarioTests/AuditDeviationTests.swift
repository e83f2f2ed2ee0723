import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// Deviations from the accessibility rules that a file documents (`accessibility: {deviations}`):
/// their findings listed as deviated and not failing, `expect-accessible` ignoring them, and a
/// deviation that matches nothing reported as stale.
@Suite struct AuditDeviationTests {
    /// The audit's scene (``AuditTests/scene``) with `deviations` from line 11.
    static func scenario(_ deviations: [String], steps: String) throws -> Scenario {
        let section = "accessibility:\n  deviations:\n" + deviations.map { "    - \($0)\n" }.joined()
        return try ScenarioLoader(registry: PluginRegistry([]))
            .load(data: Data((AuditTests.scene + section + steps).utf8), file: "audit.yaml")
    }

    static func audit(_ deviations: [String], steps: String = "steps:\n  - wait: 0.1\n") throws -> ScenarioResult {
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.audits = true
        return runner.run(try scenario(deviations, steps: steps))
    }

    /// The 30-point unlabelled button's two findings, both deviated: listed with their reasons in
    /// every format, a skipped JUnit case each, and exit 0.
    @Test func deviatedFindingsAreListedAndDoNotFail() throws {
        let result = try Self.audit([
            "{rule: touch-target, node: small, reason: \"the original's button is 30 pt\"}",
            "{rule: label, node: small, reason: the original's has no label}",
        ])
        #expect(
            result.accessibilityFindings.map(\.deviation) == ["the original's button is 30 pt", "the original's has no label"])
        #expect(result.staleDeviations.isEmpty)
        #expect(AuditReport.exitCode([result]) == 0)
        let text = AuditReport.text([result])
        #expect(
            text.hasPrefix(
                "audit.yaml:14:5: note: small: it is 30 × 30 pt on screen, less than 44 × 44 pt [touch-target], "
                    + "a deviation: the original's button is 30 pt\n"), "\(text)")
        #expect(text.contains("audit: 2 findings (2 deviated) in 1 of 1 file\n"), "\(text)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(AuditReport.json([result]).utf8)) as? [String: Any])
        let findings = try #require((json["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        #expect(findings.map { $0["deviation"] as? String } == ["the original's button is 30 pt", "the original's has no label"])
        let junit = AuditReport.junit([result])
        #expect(junit.contains(#"tests="3" failures="0" errors="0" skipped="2""#), "\(junit)")
        #expect(junit.contains(#"<skipped message="deviation: the original&apos;s has no label"/>"#), "\(junit)")
    }

    /// A deviation covers its rule and node only: the other rule of the same node still fails.
    @Test func aDeviationCoversItsRuleAndNodeOnly() throws {
        let result = try Self.audit(["{rule: touch-target, node: small, reason: \"the original's button is 30 pt\"}"])
        #expect(
            result.accessibilityFindings.map { "\($0.rule.rawValue) \($0.deviation != nil)" } == [
                "touch-target true", "label false",
            ])
        #expect(AuditReport.exitCode([result]) == 1)
    }

    /// A deviation that no step's scene breaks is stale: said at the deviation, a failure in JUnit,
    /// and exit 1 though no finding fails.
    @Test func aDeviationThatMatchesNoFindingIsStale() throws {
        let result = try Self.audit([
            "{rule: touch-target, node: small, reason: \"the original's button is 30 pt\"}",
            "{rule: label, node: small, reason: the original's has no label}",
            "{rule: touch-target, node: go, reason: once smaller}",
        ])
        #expect(result.staleDeviations.map { "\($0.location.line) \($0.node)" } == ["13 go"])
        #expect(AuditReport.exitCode([result]) == 1)
        let text = AuditReport.text([result])
        #expect(
            text.contains(
                "audit.yaml:13:7: warning: go: a stale deviation, no finding of its rule after any step; remove it [touch-target]\n"
            ),
            "\(text)")
        #expect(text.contains(", 1 stale deviation\n"), "\(text)")
        #expect(AuditReport.junit([result]).contains(#"type="stale-deviation""#))
        let json = try #require(JSONSerialization.jsonObject(with: Data(AuditReport.json([result]).utf8)) as? [String: Any])
        let stale = try #require((json["files"] as? [[String: Any]])?.first?["staleDeviations"] as? [[String: Any]])
        #expect(stale.map { "\($0["node"]!) \($0["line"]!)" } == ["go 13"])
    }

    /// `expect-accessible` passes over deviated breaches and still fails on the rest.
    @Test func expectAccessibleIgnoresDeviatedBreaches() throws {
        let result = ScenarioRunner(registry: PluginRegistry([])).run(
            try Self.scenario(
                ["{rule: touch-target, node: small, reason: \"the original's button is 30 pt\"}"],
                steps: "steps:\n  - expect-accessible: all\n"))
        guard case .failed(let failures) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(failures.map(\.subject) == ["small [label]"])
    }
}
