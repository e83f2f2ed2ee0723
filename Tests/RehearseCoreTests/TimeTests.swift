import Testing

@testable import RehearseCore

@Suite struct TimeTests {
    @Test func secondsRoundToWholeNanoseconds() throws {
        #expect(VirtualTime.seconds(0.3)?.nanoseconds == 300_000_000)
        #expect(VirtualTime.seconds(1.0 / 3)?.nanoseconds == 333_333_333)
        #expect(VirtualTime.seconds(-0.5)?.nanoseconds == -500_000_000)
    }

    @Test func nonFiniteAndHugeSecondsAreRefused() {
        #expect(VirtualTime.seconds(.nan) == nil)
        #expect(VirtualTime.seconds(.infinity) == nil)
        #expect(VirtualTime.seconds(1e12) == nil)
    }

    @Test func descriptionIsExactDecimalSeconds() {
        #expect(VirtualTime(nanoseconds: 0).description == "0")
        #expect(VirtualTime(nanoseconds: 250_000_000).description == "0.25")
        #expect(VirtualTime(nanoseconds: 16_666_666).description == "0.016666666")
        #expect(VirtualTime(nanoseconds: 3_000_000_001).description == "3.000000001")
        #expect(VirtualTime(nanoseconds: -1_500_000_000).description == "-1.5")
    }

    @Test func schedulerOrdersByTimeThenInsertion() {
        var scheduler = Scheduler<String>()
        scheduler.schedule("c", at: VirtualTime(nanoseconds: 2))
        scheduler.schedule("a", at: VirtualTime(nanoseconds: 1))
        scheduler.schedule("d", at: VirtualTime(nanoseconds: 2))
        scheduler.schedule("b", at: VirtualTime(nanoseconds: 1))
        #expect(scheduler.popItem(dueBy: VirtualTime(nanoseconds: 0)) == nil)
        var order: [String] = []
        while let (_, item) = scheduler.popItem(dueBy: VirtualTime(nanoseconds: 10)) { order.append(item) }
        #expect(order == ["a", "b", "c", "d"])
    }

    @Test func timelineRunsDueWorkInOrderAndMovesTheClock() {
        let bus = EventBus()
        let timeline = Timeline(bus: bus)
        var seen: [String] = []
        timeline.schedule(at: VirtualTime(nanoseconds: 20), owner: "t") { seen.append("late@\(timeline.now.nanoseconds)") }
        timeline.schedule(at: VirtualTime(nanoseconds: 10), owner: "t") {
            seen.append("early@\(timeline.now.nanoseconds)")
            timeline.schedule(at: VirtualTime(nanoseconds: 10), owner: "t") { seen.append("same@\(timeline.now.nanoseconds)") }
        }
        timeline.run(until: VirtualTime(nanoseconds: 15))
        #expect(seen == ["early@10", "same@10"])
        #expect(timeline.now.nanoseconds == 15)
        #expect(bus.now.nanoseconds == 15)
        timeline.run(until: VirtualTime(nanoseconds: 30))
        #expect(seen.last == "late@20")
    }
}

@Suite struct RealtimePacerTests {
    @Test func virtualTimeIsTheWallTimeElapsedSinceTheStart() {
        let start = ContinuousClock.Instant.now
        let pacer = RealtimePacer(from: VirtualTime(nanoseconds: 5_000_000_000), at: start)
        #expect(pacer.virtualTime(at: start) == VirtualTime(nanoseconds: 5_000_000_000))
        #expect(pacer.virtualTime(at: start + .milliseconds(250)) == VirtualTime(nanoseconds: 5_250_000_000))
        #expect(pacer.virtualTime(at: start - .seconds(1)) == VirtualTime(nanoseconds: 5_000_000_000))
        #expect(pacer.instant(for: VirtualTime(nanoseconds: 6_000_000_000)) == start + .seconds(1))
    }

    /// The viewer's speed control: a quarter rate runs a simulated second in four wall seconds.
    @Test func aRateScalesTheWallTimeBothWays() {
        let start = ContinuousClock.Instant.now
        let slow = RealtimePacer(from: .zero, at: start, rate: 0.25)
        #expect(slow.virtualTime(at: start + .seconds(4)) == VirtualTime(nanoseconds: 1_000_000_000))
        #expect(slow.instant(for: VirtualTime(nanoseconds: 1_000_000_000)) == start + .seconds(4))
        let fast = RealtimePacer(from: .zero, at: start, rate: 4)
        #expect(fast.virtualTime(at: start + .milliseconds(250)) == VirtualTime(nanoseconds: 1_000_000_000))
        #expect(RealtimePacer(from: .zero, rate: 1e9).rate == RealtimePacer.rates.upperBound)
        #expect(RealtimePacer(from: .zero, rate: .nan).rate == 1)
    }
}
