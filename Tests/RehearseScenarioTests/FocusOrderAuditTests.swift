import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// The focus-order rule: the field tagged one more (where Return goes) comes after each field in
/// reading order.
@Suite struct FocusOrderAuditTests {
    static func audit(_ steps: String) throws -> ScenarioResult {
        let scene =
            "name: order\nscene:\n  nodes:\n"
            + [
                "{id: a, kind: textField, frame: [20, 100, 280, 44], accessibilityLabel: A, tag: 1}",
                "{id: b, kind: textField, frame: [20, 160, 130, 44], accessibilityLabel: B, tag: 2}",
                "{id: c, kind: textField, frame: [170, 160, 130, 44], accessibilityLabel: C, tag: 3}",
            ].map { "    - \($0)\n" }.joined()
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.audits = true
        return runner.run(
            try ScenarioLoader(registry: PluginRegistry([])).load(data: Data((scene + steps).utf8), file: "order.yaml"))
    }

    /// Down the screen, then left to right on one row, breaks nothing; tags swapped so that Return
    /// goes up, or right to left on a row, break it at the field Return leaves.
    @Test func returnMustGoDownOrRightwards() throws {
        let result = try Self.audit(
            """
            steps:
              - wait: 0.1
              - set: {a.tag: 2, b.tag: 1}
              - set: {a.tag: 1, b.tag: 3, c.tag: 2}
            """)
        #expect(AuditTests.summary(result) == ["9 focus-order b", "10 focus-order c"])
        #expect(
            result.accessibilityFindings.first?.message
                == "Return moves from it (tag 1) to a (tag 2), which is above it or to its left")
    }
}
