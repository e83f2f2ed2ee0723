import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// The accessibility audit (`rehearse audit`): which nodes break which rule, at the step after
/// which each first did, once until it is mended.
@Suite struct AuditTests {
    /// Four nodes and a field low on the screen: steps from line 10.
    static let scene =
        "name: audit\nscene:\n  nodes:\n"
        + [
            "{id: small, kind: button, frame: [10, 30, 30, 30]}",
            "{id: go, kind: button, frame: [60, 30, 200, 44], accessibilityLabel: Go}",
            "{id: off, kind: button, frame: [10, 100, 20, 20], accessibilityTraits: [button, notEnabled]}",
            "{id: title, kind: label, frame: [10, 150, 20, 20]}",
            "{id: field, kind: textField, frame: [20, 480, 280, 44], accessibilityLabel: Name}",
        ].map { "    - \($0)\n" }.joined()

    static func audit(_ steps: String) throws -> ScenarioResult {
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.audits = true
        return runner.run(
            try ScenarioLoader(registry: PluginRegistry([])).load(data: Data((scene + steps).utf8), file: "audit.yaml"))
    }

    static func summary(_ result: ScenarioResult) -> [String] {
        result.accessibilityFindings.map { "\($0.location.line) \($0.rule.rawValue) \($0.node)" }
    }

    /// A 30-point button with no label breaks two rules from the first step, said once though it
    /// stays; a disabled button and a label are not interactive; the labelled 44-point button and
    /// field break nothing until the field, focused, sits behind the keyboard once it has arrived
    /// (not while it moves), and again after it was mended and broken once more.
    @Test func eachBreachIsSaidAtTheStepAfterWhichItAppeared() throws {
        let result = try Self.audit(
            """
            steps:
              - wait: 0.1
              - tap: field
              - wait: 0.05
              - wait: 1
              - set: {small.frame: [10, 30, 44, 44], field.frame.y: 100}
              - set: {small.frame.width: 43, field.frame.y: 480}
            """)
        #expect(
            Self.summary(result) == [
                "10 touch-target small", "10 label small", "13 covered-by-keyboard field", "15 touch-target small",
                "15 covered-by-keyboard field",
            ])
        let covered = try #require(result.accessibilityFindings.first { $0.rule == .coveredByKeyboard })
        #expect(covered.message.hasPrefix("the keyboard covers "), "\(covered.message)")
        #expect(result.accessibilityFindings[0].message == "it is 30 × 30 pt on screen, less than 44 × 44 pt")
    }

    /// A button's text is its label (VoiceOver reads it); a text field's text is what was typed,
    /// not a label.
    @Test func aButtonsTextLabelsItAndAFieldsDoesNot() throws {
        let result = try Self.audit(
            """
            steps:
              - set: {small.text: OK, field.accessibilityLabel: ""}
            """)
        #expect(Self.summary(result) == ["10 touch-target small", "10 label field"])
    }

    /// `expect-accessible` fails the run with a failure per node and rule it checks, at its step.
    @Test func expectAccessibleFailsForEachBreachOfItsRules() throws {
        let result = ScenarioRunner(registry: PluginRegistry([])).run(
            try ScenarioLoader(registry: PluginRegistry([])).load(
                data: Data(
                    (Self.scene + """
                        steps:
                          - expect-accessible: [label]
                          - expect-accessible: all
                          - set: {small.frame: [10, 30, 44, 44], small.accessibilityLabel: Small}
                          - expect-accessible: all
                        """).utf8), file: "audit.yaml"))
        guard case .failed(let failures) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(
            failures.map { "\($0.location.line) \($0.subject)" } == [
                "10 small [label]", "11 small [touch-target]", "11 small [label]",
            ])
        #expect(failures[1].expected == AccessibilityRule.touchTarget.summary && failures[1].actual.hasPrefix("it is 30 × 30 pt"))
        #expect(result.accessibilityFindings.isEmpty, "a run that does not audit has no findings")
    }

    /// An `expect-accessible` step over a crowd of nodes that all break its rules fails with the
    /// first ``ScenarioExecution/reportedBreaches`` breaches and one failure counting the rest: a
    /// failure reads the scene (its texts' secrets redacted, its picture in a report), so 2,000
    /// failures a step of a 1,000-node scene cost millions of reads the budget does not see, and a
    /// 10,000-node scene's 1,000 such steps would hold 20 million failures.
    @Test func expectAccessibleReportsAtMostItsLimitOfBreachesAStep() throws {
        let nodes = (0..<1_000).map { "    - {id: b\($0), kind: button, frame: [\($0 % 300), \($0 % 500), 1, 1]}\n" }.joined()
        let result = ScenarioRunner(registry: PluginRegistry([])).run(
            try ScenarioLoader(registry: PluginRegistry([]))
                .load(
                    data: Data("name: crowd\nscene:\n  nodes:\n\(nodes)steps:\n  - expect-accessible: all\n".utf8),
                    file: "crowd.yaml"))
        guard case .failed(let failures) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        let limit = ScenarioExecution.reportedBreaches
        #expect(failures.count == limit + 1)
        #expect(failures.prefix(2).map(\.subject) == ["b0 [touch-target]", "b0 [label]"])
        #expect(failures.last?.subject == "\(2_000 - limit) more breaches of touch-target, label", "\(failures.last!)")
    }

    /// A run keeps at most ``ScenarioExecution/maximumFindings`` findings, and says where it
    /// stopped: 600 tiny unlabelled buttons break two rules each at the first step.
    @Test func theAuditKeepsAtMostItsLimitOfFindings() throws {
        let nodes = (0..<600).map { "    - {id: b\($0), kind: button, frame: [\($0 % 300), \($0 % 500), 1, 1]}\n" }.joined()
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.audits = true
        let result = runner.run(
            try ScenarioLoader(registry: PluginRegistry([]))
                .load(data: Data("name: crowd\nscene:\n  nodes:\n\(nodes)steps:\n  - wait: 0.1\n".utf8), file: "crowd.yaml"))
        #expect(result.accessibilityFindings.count == ScenarioExecution.maximumFindings)
        #expect(
            AuditReport.text([result]).contains(
                "crowd.yaml: note: the audit's findings stop at crowd.yaml:605:5: a run keeps at most 1000\n"))
    }

    /// The audit's reads count against the run's budget of nodes read: a 2,000-node scene audited
    /// after 10 steps reads 20,000 and more, past a budget of 10,000, so the run stops there.
    @Test func theAuditsReadsCountAgainstTheRunsBudget() throws {
        let nodes = (0..<2_000).map { "    - {id: n\($0), kind: view, frame: [0, 0, 1, 1]}\n" }.joined()
        let steps = String(repeating: "  - wait: 0.1\n", count: 10)
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.audits = true
        runner.budget = WorkBudget(maximumQueriedNodes: 10_000)
        let result = runner.run(
            try ScenarioLoader(registry: PluginRegistry([]))
                .load(data: Data("name: crowd\nscene:\n  nodes:\n\(nodes)steps:\n\(steps)".utf8), file: "crowd.yaml"))
        guard case .stopped(let error) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(
            error.message.hasPrefix("the run needed more than 10000 nodes read by node queries and accessibility checks"),
            "\(error)")
    }

    /// The text report names each finding as a compiler's warning and the rules' sources; JSON
    /// carries the same; findings exit 1.
    @Test func theReportsSayTheFindingsAndTheirSources() throws {
        let result = try Self.audit("steps:\n  - wait: 0.1\n")
        let text = AuditReport.text([result])
        #expect(
            text.hasPrefix("audit.yaml:10:5: warning: small: it is 30 × 30 pt on screen, less than 44 × 44 pt [touch-target]\n"),
            "\(text)")
        #expect(text.contains("audit: 2 findings in 1 of 1 file\n"), "\(text)")
        #expect(
            text.contains("Human Interface Guidelines") && text.contains("WCAG 2.2") && !text.contains("Text Programming Guide"),
            "\(text)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(AuditReport.json([result]).utf8)) as? [String: Any])
        let findings = try #require((json["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"]!) \($0["node"]!) \($0["line"]!)" } == ["touch-target small 10", "label small 10"])
        #expect(AuditReport.exitCode([result]) == 1)
    }
}
