import Panner
import RehearseCore
import RehearseTesting
import ShakeDetector
import Testing

/// A motion sample with only a user acceleration along x, in g.
private func push(_ x: Double) -> Event {
    .motion(MotionSample(rotationRate: Vector3(x: 0, y: 0, z: 0), userAcceleration: Vector3(x: x, y: 0, z: 0)))
}

@Suite struct ShakeDetectorTests {
    @Test func threeAlternatingPeaksWithinTheWindowAreOneShake() throws {
        let harness = try PluginHarness(ShakeDetector.self)
        for (index, x) in [1.6, -2.4, 0.2, 1.9].enumerated() {
            if index > 0 { harness.advance(by: 0.1) }
            harness.send(push(x))
        }
        harness.receive(Shake(peaks: 3, magnitude: 2.4))
        #expect(harness.value("shake-detector.shakes") == 1)
        #expect(harness.value("shake-detector.peaks") == 0)
    }

    @Test func pushingOneWayOrGentlyIsNoShake() throws {
        let harness = try PluginHarness(ShakeDetector.self)
        for x in [1.6, 1.8, 2.0, 1.7, 1.4, -1.4, 1.4] {
            harness.send(push(x))
            harness.advance(by: 0.05)
        }
        // 1.6 counts, the next pushes the same way do not, 1.4 is under the 1.5 g threshold.
        #expect(harness.value("shake-detector.peaks") == 1)
        #expect(harness.value("shake-detector.shakes") == 0)
    }

    @Test func peaksFurtherApartThanTheWindowStartOver() throws {
        var configuration = ShakeDetector.Configuration()
        configuration.window = 0.5
        let harness = try PluginHarness(ShakeDetector.self, configuration: configuration)
        harness.send(push(2))
        harness.advance(by: 0.3)
        harness.send(push(-2))
        harness.advance(by: 0.3)
        // The first peak is 0.6 s old now: only two remain.
        harness.send(push(2))
        #expect(harness.value("shake-detector.peaks") == 2)
        harness.advance(by: 0.1)
        harness.send(push(-2))
        harness.receive(Shake(peaks: 3, magnitude: 2))
    }

    @Test func oneShakePerGestureUntilTheCooldownHasPassed() throws {
        let harness = try PluginHarness(ShakeDetector.self)
        func gesture() {
            for x in [2.0, -2.0, 2.0] {
                harness.send(push(x))
                harness.advance(by: 0.1)
            }
        }
        gesture()  // the shake at 0.2 s: quiet until 1.2 s
        gesture()  // 0.3 to 0.5 s, within the cooldown: ignored
        harness.advance(by: 0.7)
        gesture()  // 1.3 to 1.5 s
        harness.receive(Shake(peaks: 3, magnitude: 2))
        harness.receive(Shake(peaks: 3, magnitude: 2))
        #expect(harness.value("shake-detector.shakes") == 2)
    }

    /// Composed with a shipped plugin: the panner pans on the rotation of the same samples the
    /// detector reads the acceleration of, and neither disturbs the other.
    @Test func composesWithTheShippedPanner() throws {
        let simulation = Simulation()
        try Panner.scene?.build(simulation.scene)
        try simulation.install(Panner.self)
        let detector = try simulation.install(ShakeDetector.self)
        var shakes: [DeliveredEvent] = []
        simulation.bus.subscribe(.name(Shake.name), owner: "test") { shakes.append($0) }
        let start = try #require(simulation.value(at: "scroll.contentOffset.x")?.number)
        for x in [2.0, -2.0, 2.0] {
            try simulation.inject(
                .motion(
                    MotionSample(
                        rotationRate: Vector3(x: 0, y: -0.5, z: 0),
                        userAcceleration: Vector3(x: x, y: 0, z: 0))))
            simulation.advance(by: VirtualTime.seconds(0.1) ?? .zero)
        }
        #expect(shakes.map(\.event) == [Shake(peaks: 3, magnitude: 2).event])
        #expect(detector.state["shakes"] == 1)
        // Each sample pans by -y × zoom × 5 (SubjectiveCPhotoPanner's rule): to the right here.
        #expect(try #require(simulation.value(at: "scroll.contentOffset.x")?.number) > start)
    }
}

/// Its declarations say what it does: id, configuration, state keys, the shake event's fields.
@Test func shakeDetectorConforms() {
    #expect(PluginConformance.problems(of: ShakeDetector.self, samples: [Shake(peaks: 3, magnitude: 2.4)]) == [])
}
