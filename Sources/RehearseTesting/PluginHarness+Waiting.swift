import RehearseCore
import Testing

extension PluginHarness {
    /// Advances the clock one display frame at a time until nothing moves, as a scenario's
    /// `settle` step does (``Simulation/settle(within:)``; ``MovingThing`` says what counts): at
    /// once when nothing does. What still moves after `timeout` simulated seconds (0 to
    /// ``ScenarioLimits/waitSeconds``) is a test failure at the caller, naming it
    /// (`box.frame is animating until 100 s`).
    ///
    /// ```swift
    /// harness.send(.focus(NodeTarget(target: "username")))
    /// harness.settle()                      // the keyboard has arrived, the form has lifted
    /// ```
    public func settle(timeout: Double = Simulation.defaultWaitSeconds, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let limit = waitTimeout(timeout, sourceLocation) else { return }
        let moving = simulation.settle(within: limit)
        guard !moving.isEmpty else { return }
        Issue.record(
            "settle: expected nothing moving within \(limit) s, but \(MovingThing.list(moving))", sourceLocation: sourceLocation)
    }

    /// Runs the clock until `condition` holds, as a scenario's `wait-until` step does: `condition`
    /// is written as an invariant's (`PATH OP VALUE`, ``Condition``), checked now and after every
    /// event and display frame, and the clock stays where it first holds. Not holding after
    /// `timeout` simulated seconds (0 to ``ScenarioLimits/waitSeconds``) is a test failure at the
    /// caller with both sides; so is a condition that cannot be read, or a path the scene lacks.
    ///
    /// ```swift
    /// harness.wait(until: "keyboard.visible == true", timeout: 1)
    /// ```
    public func wait(
        until condition: String, timeout: Double = Simulation.defaultWaitSeconds,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let limit = waitTimeout(timeout, sourceLocation) else { return }
        let parsed: Condition
        do {
            parsed = try Condition(parsing: condition)
            _ = try simulation.value(at: parsed.path.text)
            if let path = parsed.operandPath { _ = try simulation.value(at: path.text) }
        } catch {
            Issue.record("wait(until: \(condition)): \(error)", sourceLocation: sourceLocation)
            return
        }
        guard !simulation.wait(until: { simulation.holds(parsed) }, within: limit) else { return }
        let (actual, expected) = simulation.sides(of: parsed)
        Issue.record(
            "wait(until: \(parsed)): expected \(expected) within \(limit) s, but \(actual)", sourceLocation: sourceLocation)
    }

    /// `seconds` as a timeout, or nil (and a test failure) unless it is from 0 to ``ScenarioLimits/waitSeconds``.
    private func waitTimeout(_ seconds: Double, _ sourceLocation: SourceLocation) -> VirtualTime? {
        guard (0...ScenarioLimits.waitSeconds).contains(seconds), let timeout = VirtualTime.seconds(seconds) else {
            Issue.record(
                "a timeout is 0 to \(Int(ScenarioLimits.waitSeconds)) s, found \(seconds)", sourceLocation: sourceLocation)
            return nil
        }
        return timeout
    }
}
