import RehearseCore

/// `rehearse audit`: the scene against the accessibility rules after every step.
extension ScenarioExecution {
    /// Checks the scene as `step` left it, and keeps each breach that was not there after the
    /// step before as a finding of this step.
    func auditStep(_ step: Step) {
        let now = AccessibilityAudit.breaches(in: simulation, read: &meter.queriedNodes)
        for breach in now where !auditBreaches.contains(breach.key) && accessibilityFindings.count < Self.maximumFindings {
            accessibilityFindings.append(
                AccessibilityFinding(
                    rule: breach.rule, node: breach.node, message: breach.message,
                    location: step.location, time: simulation.now, deviation: deviation(from: breach)?.reason))
        }
        deviatedBreaches.formUnion(now.filter { deviation(from: $0) != nil }.map(\.key))
        if accessibilityFindings.count == Self.maximumFindings, !findingsFull {
            findingsFull = true
            notes.append("the audit's findings stop at \(step.location): a run keeps at most \(Self.maximumFindings)")
        }
        auditBreaches = Set(now.map(\.key))
    }

    /// The file's deviation from `breach`'s rule for its node, if it documents one.
    func deviation(from breach: AccessibilityAudit.Breach) -> AccessibilityDeviation? {
        deviations.first { $0.covers(rule: breach.rule, node: breach.node) }
    }

    /// The file's deviations that matched no breach after any step audited: stale.
    var staleDeviations: [AccessibilityDeviation] {
        deviations.filter { !deviatedBreaches.contains([$0.rule.rawValue, $0.node]) }
    }

    /// The most findings one run keeps: a step can make every node of a 10,000-node scene
    /// appear again, and 200 steps of one made 2 million (1.5 GB held, 277 MB of JSON).
    static let maximumFindings = 1_000
}
