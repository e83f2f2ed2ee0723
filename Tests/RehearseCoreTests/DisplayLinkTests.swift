import Testing

@testable import RehearseCore

@Suite struct DisplayLinkTests {
    private func tickTimes(_ log: EventLog) -> [Int64] {
        log.events.compactMap { event -> Int64? in
            if case .tick(let tick) = event.event { return tick.timestamp.nanoseconds }
            return nil
        }
    }

    @Test func anIdleSceneGetsNoTicks() {
        let simulation = Simulation()
        simulation.advance(seconds: 10)
        #expect(simulation.displayLink.tickCount == 0)
        #expect(simulation.timeline.pendingCount == 0)
    }

    @Test func ticksOnTheVsyncGridWhileAnAnimationRunsThenStops() throws {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        let log = simulation.record()
        simulation.advance(seconds: 0.01)
        simulation.animator.animate(AnimationParameters(duration: 0.3), owner: "test") {
            try? simulation.animator.set(SIMD4(0.5, 0, 0, 0), for: .alpha, of: "box")
        }
        simulation.advance(seconds: 2)
        // Started at 10 ms, ends at 310 ms: frames 1 to 18 of 60 Hz (16.67 ms to 300 ms) while it
        // runs, and frame 19 (316.67 ms) to show its end; exact integer nanoseconds k × 10⁹ / 60.
        #expect(tickTimes(log) == (1...19).map { Int64($0) * 1_000_000_000 / 60 })
        let ticksAfterAnimation = simulation.displayLink.tickCount
        simulation.advance(seconds: 5)
        #expect(simulation.displayLink.tickCount == ticksAfterAnimation)
    }

    @Test func aTickSubscriberKeepsTheLinkRunningUntilItLeaves() throws {
        let simulation = Simulation(device: .iPhone13Pro)  // 120 Hz
        var ticks: [Tick] = []
        let token = try #require(
            simulation.bus.subscribe(.name("tick"), owner: "test") { event in
                if case .tick(let tick) = event.event { ticks.append(tick) }
            })
        simulation.advance(seconds: 0.1)
        #expect(ticks.count == 12)
        #expect(
            ticks.first
                == Tick(
                    timestamp: VirtualTime(nanoseconds: 8_333_333),
                    targetTimestamp: VirtualTime(nanoseconds: 16_666_666)))
        simulation.bus.unsubscribe(token)
        simulation.advance(seconds: 1)
        // The vsync already scheduled still ticks (nobody hears it); then the link stops.
        #expect(ticks.count == 12)
        #expect(simulation.displayLink.tickCount == 13)
    }

    @Test func aTickSubscriberThatAnimatesOnEveryTickTicksOncePerVsync() throws {
        let simulation = Simulation()  // 60 Hz: a vsync's time, 16,666,666 ns, is rounded down
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        var ticks: [Int64] = []
        _ = try #require(
            simulation.bus.subscribe(.name("tick"), owner: "test") { event in
                guard case .tick(let tick) = event.event else { return }
                ticks.append(tick.timestamp.nanoseconds)
                simulation.animator.animate(AnimationParameters(duration: 0.5), owner: "test") {
                    try? simulation.animator.set(SIMD4(repeating: Double(ticks.count % 2)), for: .alpha, of: "box")
                }
            })
        simulation.advance(seconds: 0.2)
        // An animation started during a tick asks for frames: the next is the vsync after this
        // one, never this one again (which would tick forever at one instant), and only once.
        #expect(ticks == (1...12).map { Int64($0) * 1_000_000_000 / 60 })
    }

    @Test func theFirstVsyncAfterAVsyncsOwnTimeIsTheNextOne() {
        let link = Simulation().displayLink  // 60 Hz
        for frame in Int64(1)...240 {
            let time = link.time(ofFrame: frame)
            #expect(link.frame(after: time) == frame + 1)
            #expect(link.frame(after: VirtualTime(nanoseconds: time.nanoseconds - 1)) == frame)
        }
    }
}
