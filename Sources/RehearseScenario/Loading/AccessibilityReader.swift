import RehearseCore

extension StepParser {
    /// The `accessibility:` section: `deviations:`, each `{rule, node, reason}` (a known rule, a
    /// node of the scene, a reason of ``ScenarioLimits/deviationReasonLength`` characters), at most
    /// ``ScenarioLimits/accessibilityDeviations`` of them and each rule and node at most once.
    func accessibilityDeviations(_ value: YAMLValue) throws(ScenarioError) -> [AccessibilityDeviation] {
        let entries = try value.mapping("accessibility", allowed: ScenarioSyntax.accessibility)
        guard let list = entries["deviations"] else { return [] }
        let items = try list.sequence("deviations")
        guard items.count <= ScenarioLimits.accessibilityDeviations else {
            throw list.error(
                "\(items.count) deviations; a file documents at most \(ScenarioLimits.accessibilityDeviations) "
                    + "(ScenarioLimits.accessibilityDeviations)")
        }
        var deviations: [AccessibilityDeviation] = []
        for item in items {
            let fields = try item.mapping("a deviation", allowed: ScenarioSyntax.deviation)
            guard let ruleValue = fields["rule"], let nodeValue = fields["node"], let reasonValue = fields["reason"] else {
                throw item.error("a deviation needs rule, node and reason (why the original app breaks the rule)")
            }
            let deviation = AccessibilityDeviation(
                rule: try accessibilityRule(ruleValue), node: try node(nodeValue), reason: try reason(reasonValue),
                location: item.location)
            guard !deviations.contains(where: { $0.covers(rule: deviation.rule, node: deviation.node) }) else {
                throw item.error("the deviation from \(deviation.rule.rawValue) of '\(deviation.node)' is listed twice")
            }
            deviations.append(deviation)
        }
        return deviations
    }

    private func reason(_ value: YAMLValue) throws(ScenarioError) -> String {
        let reason = try value.string("a deviation's reason")
        guard !reason.allSatisfy(\.isWhitespace) else {
            throw value.error(
                "a deviation's reason is empty: say why the original app breaks the rule, and where that is written")
        }
        let length = reason.unicodeScalars.count
        let limits = ScenarioLimits.deviationReasonLength
        guard length <= limits.upperBound else {
            throw value.error(
                "a deviation's reason is at most \(limits.upperBound) Unicode scalars "
                    + "(ScenarioLimits.deviationReasonLength), found \(length)")
        }
        return reason
    }
}
