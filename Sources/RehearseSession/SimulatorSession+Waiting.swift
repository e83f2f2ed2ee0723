import RehearseCore

extension SimulatorSession {
    /// `Settle`: advances a manual or virtual clock one display frame at a time until nothing
    /// moves (``Simulation/settle(within:advancing:)``), calling `betweenSlices` after every
    /// ``advanceSlice`` pieces of scheduled work as `Advance` does, across frames (a settle of
    /// 600 s at 1,000 Hz is 600,000 frames of a few pieces each). Returns the time reached; past
    /// `seconds` (0 to ``ScenarioLimits/waitSeconds``) it throws a `timeout` naming what still
    /// moves, the clock left at the timeout.
    public func settle(within seconds: Double, betweenSlices: () -> Bool) throws(SessionError) -> Double {
        let timeout = try waitTimeout(seconds, "Settle")
        var pieces = 0
        let moving = simulation.settle(within: timeout) { time in
            var reached = false
            while !reached {
                reached = simulation.timeline.run(until: time, atMost: 1)
                pieces += 1
                guard pieces % Self.advanceSlice != 0 || betweenSlices() else { return false }
            }
            return true
        }
        guard moving.isEmpty else {
            throw SessionError(.timeout, "still moving after \(timeout) s: \(MovingThing.list(moving))")
        }
        return simulation.now.seconds
    }

    /// `WaitUntil`: runs a manual or virtual clock until `condition` (an invariant's `PATH OP
    /// VALUE`) holds, checked now and after every piece of scheduled work, calling `betweenSlices`
    /// every ``advanceSlice`` pieces. Returns the time it held; past `seconds` (0 to
    /// ``ScenarioLimits/waitSeconds``) it throws a `timeout` with the condition's two sides.
    public func wait(until condition: String, within seconds: Double, betweenSlices: () -> Bool) throws(SessionError) -> Double {
        let timeout = try waitTimeout(seconds, "WaitUntil")
        let parsed: Condition
        do {
            parsed = try Condition(parsing: condition)
        } catch {
            throw SessionError(.invalidField, "condition: \(error) (at character \(error.offset))")
        }
        for path in [parsed.path] + (parsed.operandPath.map { [$0] } ?? []) { _ = try value(at: path.text) }
        var pieces = 0
        let held = simulation.wait(until: { simulation.holds(parsed) }, within: timeout) { deadline in
            _ = simulation.timeline.run(until: deadline, atMost: 1)
            pieces += 1
            return pieces % Self.advanceSlice != 0 || betweenSlices()
        }
        guard held else {
            let (actual, expected) = simulation.sides(of: parsed)
            throw SessionError(.timeout, "\(parsed) did not hold within \(timeout) s: expected \(expected), found \(actual)")
        }
        return simulation.now.seconds
    }

    /// A timeout in seconds, checked: from 0 to ``ScenarioLimits/waitSeconds``, and a clock that
    /// a call may move (not realtime).
    private func waitTimeout(_ seconds: Double, _ method: String) throws(SessionError) -> VirtualTime {
        try requireMovableClock(method)
        guard (0...ScenarioLimits.waitSeconds).contains(seconds), let timeout = VirtualTime.seconds(seconds) else {
            throw SessionError(
                .invalidField, "timeout must be from 0 to \(Int(ScenarioLimits.waitSeconds)) seconds, found \(seconds)")
        }
        return timeout
    }
}
