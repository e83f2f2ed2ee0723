import RehearseCore

/// `rehearse audit`: the scene against the accessibility rules after every step.
extension ScenarioExecution {
    /// Checks the scene as `step` left it, and keeps each breach that was not there after the
    /// step before as a finding of this step.
    func auditStep(_ step: Step) {
        let now = AccessibilityAudit.breaches(in: simulation, read: &meter.queriedNodes)
        for breach in now where !auditBreaches.contains(breach.key) {
            accessibilityFindings.append(AccessibilityFinding(rule: breach.rule, node: breach.node, message: breach.message,
                                                              location: step.location, time: simulation.now))
        }
        auditBreaches = Set(now.map(\.key))
    }
}
