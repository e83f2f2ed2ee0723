import RehearseCore

/// The steps that wait for the simulation rather than for a time: `settle` and `wait-until`.
/// How long they take is known only when they run, so the steps' clock counts each at its
/// timeout (the most it can take), and an `at:` after one is refused (``Step/Action/hasKnownDuration``).
extension StepParser {
    /// A settle's or a wait-until's timeout unless the step gives one.
    static let defaultWait = VirtualTime.seconds(Simulation.defaultWaitSeconds) ?? .zero

    /// `settle` (bare, or `settle:` with nothing), or `settle: {timeout: S}`.
    mutating func settle(_ argument: YAMLValue?, at value: YAMLValue) throws(ScenarioError) -> Step.Action {
        var timeout = Self.defaultWait
        if let argument, argument.typeName != "null" {
            guard case .mapping = argument.node else {
                throw argument.error("settle takes nothing, or {timeout: SECONDS}; found \(argument.typeName)")
            }
            let entries = try argument.mapping("settle", allowed: ScenarioSyntax.settle)
            timeout = try entries["timeout"].map(waitTimeout) ?? timeout
        }
        try waited(timeout, at: value)
        return .settle(timeout: timeout)
    }

    /// `wait-until: CONDITION` or `{until: CONDITION, timeout: S}`, the condition in the
    /// invariants' grammar, its paths checked against the scene.
    mutating func waitUntil(_ argument: YAMLValue) throws(ScenarioError) -> Step.Action {
        guard case .mapping = argument.node else {
            let condition = try condition(argument)
            try waited(Self.defaultWait, at: argument)
            return .waitUntil(condition, timeout: Self.defaultWait)
        }
        let entries = try argument.mapping("wait-until", allowed: ScenarioSyntax.waitUntil)
        guard let until = entries["until"] else { throw argument.error("wait-until needs until: PATH OP VALUE") }
        let condition = try condition(until)
        let timeout = try entries["timeout"].map(waitTimeout) ?? Self.defaultWait
        try waited(timeout, at: argument)
        return .waitUntil(condition, timeout: timeout)
    }

    /// A timeout: seconds from 0 to ``ScenarioLimits/waitSeconds``.
    private func waitTimeout(_ value: YAMLValue) throws(ScenarioError) -> VirtualTime {
        let seconds = try value.number("timeout", minimum: 0)
        guard seconds <= ScenarioLimits.waitSeconds, let timeout = VirtualTime.seconds(seconds) else {
            throw value.error(
                "timeout must be at most \(Int(ScenarioLimits.waitSeconds)) seconds, found \(seconds.shortDescription)")
        }
        return timeout
    }

    /// Counts a wait of at most `timeout` on the steps' clock.
    private mutating func waited(_ timeout: VirtualTime, at value: YAMLValue) throws(ScenarioError) {
        try moveClock(to: clock + timeout, at: value)
    }
}
