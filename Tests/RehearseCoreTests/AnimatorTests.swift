import Testing

@testable import RehearseCore

@Suite struct AnimatorTests {
    private func simulation(_ model: AnimationModel) throws -> Simulation {
        let simulation = Simulation(animationModel: model)
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 100, height: 100))
        return simulation
    }

    private func moveBox(
        _ simulation: Simulation, toY y: Double, duration: Double = 1, curve: TimingCurve = .linear,
        options: AnimationOptions = [], completion: ((Bool) -> Void)? = nil
    ) throws {
        try simulation.animator.animate(
            AnimationParameters(duration: duration, curve: curve, options: options), owner: "test",
            changes: { try simulation.animator.set(Rect(x: 0, y: y, width: 100, height: 100).vector, for: .frame, of: "box") },
            completion: completion)
    }

    @Test func modelChangesAtOncePresentationFollowsTheCurve() throws {
        let simulation = try simulation(.additive)
        try moveBox(simulation, toY: 100, duration: 0.3, curve: .easeInEaseOut)
        #expect(try simulation.number("box.frame.y") == 100)
        #expect(try simulation.number("box.presentation.frame.y") == 0)
        simulation.advance(seconds: 0.15)
        // Halfway through an easeInEaseOut animation the progress is the curve's value at 0.5 (0.5).
        let expected = 100 * TimingCurve.easeInEaseOut.progress(elapsed: 0.15, duration: 0.3)
        #expect(abs(try simulation.number("box.presentation.frame.y") - expected) < 1e-9)
        #expect(abs(expected - 50) < 1e-5)
        simulation.advance(seconds: 0.15)
        #expect(try simulation.number("box.presentation.frame.y") == 100)
    }

    /// iOS 8 additive: y animates 0 → 100 over 1 s (linear); at 0.5 s it is retargeted to 0.
    /// The first animation keeps adding (0 - 100)(1 - p1) and the second (100 - 0)(1 - p2).
    @Test func additiveModelBlendsAnInterruptedAnimation() throws {
        let simulation = try simulation(.additive)
        let log = simulation.record()
        try moveBox(simulation, toY: 100)
        simulation.advance(seconds: 0.5)
        #expect(abs(try simulation.number("box.presentation.frame.y") - 50) < 1e-6)
        try moveBox(simulation, toY: 0)
        // Just after the retarget the presentation is still 50: no jump.
        #expect(abs(try simulation.number("box.presentation.frame.y") - 50) < 1e-6)
        simulation.advance(seconds: 0.25)
        // model 0 + (0 - 100)(1 - 0.75) + (100 - 0)(1 - 0.25) = -25 + 75 = 50
        #expect(abs(try simulation.number("box.presentation.frame.y") - 50) < 1e-6)
        simulation.advance(seconds: 0.25)
        // first done; second at p = 0.5: 0 + 100 × 0.5 = 50
        #expect(abs(try simulation.number("box.presentation.frame.y") - 50) < 1e-6)
        simulation.advance(seconds: 0.5)
        #expect(try simulation.number("box.presentation.frame.y") == 0)
        let finished = log.events.compactMap { event -> Bool? in
            if case .animationFinished(let payload) = event.event { return payload.finished }
            return nil
        }
        #expect(finished == [true, true])
    }

    /// iOS 7 replace with beginFromCurrentState: the second animation starts from the on-screen 50
    /// and the first finishes at once with finished: false.
    @Test func replaceModelRestartsFromTheCurrentState() throws {
        let simulation = try simulation(.replace)
        let log = simulation.record()
        var completions: [Bool] = []
        try moveBox(simulation, toY: 100) { completions.append($0) }
        simulation.advance(seconds: 0.5)
        try moveBox(simulation, toY: 0, options: .beginFromCurrentState) { completions.append($0) }
        #expect(
            log.events.last?.event == .animationFinished(AnimationFinished(target: "box", property: "frame", finished: false)))
        simulation.advance(seconds: 0.5)
        // 50 → 0 linearly over 1 s: 25 at the midpoint.
        #expect(abs(try simulation.number("box.presentation.frame.y") - 25) < 1e-6)
        simulation.advance(seconds: 0.5)
        #expect(try simulation.number("box.presentation.frame.y") == 0)
        #expect(completions == [false, true])
    }

    /// Without beginFromCurrentState, iOS 7 starts the new animation from the old model value (100):
    /// the box jumps.
    @Test func replaceModelWithoutCurrentStateJumpsToTheOldTarget() throws {
        let simulation = try simulation(.replace)
        try moveBox(simulation, toY: 100)
        simulation.advance(seconds: 0.5)
        try moveBox(simulation, toY: 0)
        #expect(try simulation.number("box.presentation.frame.y") == 100)
    }

    /// Issue 16: a `frame.y` animation started at 0.5 s while a whole-`frame` animation moves x
    /// 0 → 100 (both 1 s, linear). Core Animation's key paths compose: x goes on with the frame
    /// animation under both models; y follows its own animation (additively, the frame one adds 0
    /// there, since it did not change y; replacing, the later key path's value wins there).
    @Test(arguments: [AnimationModel.additive, .replace])
    func aComponentAnimationComposesWithTheWholeProperty(model: AnimationModel) throws {
        let simulation = try simulation(model)
        let log = simulation.record()
        let linear = AnimationParameters(duration: 1, curve: .linear)
        try simulation.animator.animate(linear, owner: "test") {
            try simulation.setValue(Rect(x: 100, y: 0, width: 100, height: 100).fieldValue, at: "box.frame")
        }
        simulation.advance(seconds: 0.5)
        try simulation.animator.animate(linear, owner: "test") { try simulation.setValue(.double(200), at: "box.frame.y") }
        #expect(try simulation.number("box.frame.x") == 100 && simulation.number("box.frame.y") == 200, "the model at once")
        simulation.advance(seconds: 0.25)
        let (x, y) = (try simulation.number("box.presentation.frame.x"), try simulation.number("box.presentation.frame.y"))
        // Within 1e-6: `linear` is the Bézier (0, 0, 1, 1), solved numerically as Core Animation does.
        #expect(abs(x - 75) < 1e-6, "the frame animation goes on")
        #expect(abs(y - 50) < 1e-6, "a quarter of the way to 200")
        #expect(try simulation.number("box.presentation.frame.width") == 100)
        simulation.advance(seconds: 0.75)
        #expect(try simulation.number("box.presentation.frame.y") == 200)
        let finished = log.events.compactMap { if case .animationFinished(let done) = $0.event { done.finished } else { nil } }
        #expect(finished == [true, true], "neither was interrupted")
    }

    /// The same key path replaces its running animation under the replace model.
    @Test func aSecondAnimationOfTheSameComponentReplacesTheFirst() throws {
        let simulation = try simulation(.replace)
        let linear = AnimationParameters(duration: 1, curve: .linear, options: .beginFromCurrentState)
        try simulation.animator.animate(linear, owner: "test") { try simulation.setValue(.double(100), at: "box.frame.y") }
        simulation.advance(seconds: 0.5)
        try simulation.animator.animate(linear, owner: "test") { try simulation.setValue(.double(0), at: "box.frame.y") }
        simulation.advance(seconds: 0.5)
        #expect(abs(try simulation.number("box.presentation.frame.y") - 25) < 1e-6, "from 50 halfway back to 0")
    }

    @Test func delayHoldsTheOldValueThenAnimates() throws {
        let simulation = try simulation(.additive)
        try simulation.animator.animate(AnimationParameters(duration: 1, delay: 0.5, curve: .linear), owner: "test") {
            try simulation.animator.set(SIMD4(0.2, 0, 0, 0), for: .alpha, of: "box")
        }
        simulation.advance(seconds: 0.4)
        #expect(try simulation.number("box.presentation.alpha") == 1)
        simulation.advance(seconds: 0.6)
        #expect(abs(try simulation.number("box.presentation.alpha") - 0.6) < 1e-9)
    }

    @Test func completionRunsOnceAfterEveryAnimationOfTheTransaction() throws {
        let simulation = try simulation(.additive)
        try simulation.addNode("other", .view, Rect(x: 0, y: 0, width: 1, height: 1))
        var completions: [(Bool, Double)] = []
        simulation.animator.animate(
            AnimationParameters(duration: 0.3), owner: "test",
            changes: {
                try? simulation.animator.set(SIMD4(0, 0, 0, 0), for: .alpha, of: "box")
                try? simulation.animator.set(SIMD4(0.5, 0, 0, 0), for: .alpha, of: "other")
            }, completion: { completions.append(($0, simulation.now.seconds)) })
        simulation.advance(seconds: 1)
        #expect(completions.count == 1)
        #expect(completions.first?.0 == true)
        #expect(completions.first?.1 == 0.3)
    }

    @Test func aTransactionThatChangesNothingCompletesAtOnce() throws {
        let simulation = try simulation(.additive)
        var completed = false
        simulation.animator.animate(AnimationParameters(duration: 0.3), owner: "test", changes: {}) { completed = $0 }
        simulation.advance(seconds: 0)
        #expect(completed)
        #expect(simulation.animator.runningCount == 0)
    }

    @Test func springAnimationRunsForItsSettlingTime() throws {
        let simulation = try simulation(.additive)
        let spring = try #require(Spring.pop(bounciness: 10, speed: 10))
        try moveBox(simulation, toY: 100, duration: 0.1, curve: .spring(spring))
        simulation.advance(seconds: 0.1)
        #expect(simulation.animator.runningCount == 1)
        simulation.advance(seconds: spring.settlingDuration)
        #expect(simulation.animator.runningCount == 0)
    }
}
