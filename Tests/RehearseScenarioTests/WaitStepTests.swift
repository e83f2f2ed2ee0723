import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// `settle`, `wait-until` and `settle: auto`: what they wait for, where they leave the clock, how
/// they fail, and what the loader refuses around them.
@Suite struct WaitStepTests {
    /// A list as long as fling-normal-rate.yaml's, a box in it and a field: six lines, steps from line 8.
    static let list =
        "name: waiting\nscene:\n  nodes:\n"
        + [
            "{id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 3000]}",
            "{id: box, kind: view, frame: [0, 100, 100, 100], parent: list}",
            "{id: field, kind: textField, frame: [20, 260, 280, 30]}",
        ].map { "    - \($0)\n" }.joined()

    static func load(_ text: String) throws -> Scenario {
        try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(text.utf8), file: "wait.yaml")
    }

    static func run(_ text: String, trace: Bool = false, settle: Bool = false) throws -> ScenarioResult {
        var runner = ScenarioRunner(registry: PluginRegistry([]), recordsTrace: trace)
        runner.settlesAfterSteps = settle
        return runner.run(try load(text))
    }

    static func failures(_ result: ScenarioResult) -> [Failure] {
        if case .failed(let failures) = result.outcome { return failures }
        return []
    }

    /// The fling of Scenarios/touch/fling-normal-rate.yaml, which waits until 7.25 s by hand for
    /// the rest it computes (879.40): a settle lands there, on the first frame after the motion
    /// has come within half a pixel of it, well before the hand-computed time.
    @Test func aSettleAfterAFlingLandsWhereTheHandComputedWaitDid() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
                  - settle
                  - expect: {list.contentOffset.y: {approx: 879.40, within: 0.5}}
                  - expect-event: {name: scroll.didEndDecelerating, count: 1}
                """)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
        let time = result.simulatedTime.seconds
        #expect(time > 2.25 && time < 7.25, "settled at \(time) s")
        // On a vsync of the 60 Hz display.
        #expect((time * 60).rounded() == time * 60 || abs((time * 60).rounded() - time * 60) < 1e-6)
    }

    @Test func aSettleAfterTheKeyboardShowsStopsWhenItHasArrived() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - focus: field
                  - settle
                  - expect: {keyboard.visible: true, keyboard.presentation.frame.y: 352, time: 0.5}
                  - expect-event: keyboard.didShow
                """)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
    }

    @Test func aSettleWhenNothingMovesPassesAtOnceAndLeavesTheClock() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - wait: 0.3
                  - settle
                  - settle:
                  - settle: {timeout: 0}
                  - expect: {time: 0.3}
                """, trace: true)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
        #expect(result.trace.isEmpty)
    }

    @Test func aSettleTimesOutNamingWhatStillMoves() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - animate: {target: box, property: frame.y, to: 400, duration: 100, curve: linear}
                  - focus: field
                  - settle: {timeout: 1.5}
                  - expect: {time: 1.5}
                """)
        let failure = try #require(Self.failures(result).first)
        #expect(Self.failures(result).count == 1)
        #expect(failure.subject == "settle")
        #expect(failure.expected == "nothing moving within 1.5 s")
        #expect(failure.actual == "box.frame is animating until 100 s")
        #expect(failure.location.line == 10)
    }

    @Test func aSettleNamesTheScrollViewThatIsStillDecelerating() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
                  - settle: {timeout: 0.25}
                """)
        let failure = try #require(Self.failures(result).first)
        // v0 = 1200 at release, 0.998^250 of it a quarter second later: 727.5 points per second.
        #expect(failure.actual == "list.contentOffset is still decelerating at 727 pt/s")
    }

    @Test func aSettleNamesAnEventDueByTheNextFrame() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - emit: {name: network, fields: {online: false}, at: 0.01}
                  - settle: {timeout: 0}
                """)
        #expect(Self.failures(result).first?.actual == "an injected event is due at 0.01 s")
    }

    @Test func aWaitUntilStopsTheClockWhereTheConditionFirstHolds() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - animate: {target: box, property: frame.y, to: 400, duration: 1, curve: linear}
                  - wait-until: box.presentation.frame.y >= 250
                  - expect: {time: 0.5}
                  - wait-until: {until: keyboard.visible == false, timeout: 2}
                  - expect: {time: 0.5}
                """)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
    }

    @Test func aWaitUntilTimesOutWithBothSides() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - wait-until: {until: box.frame.y >= list.frame.height, timeout: 1}
                  - wait-until: {until: keyboard.visible == true, timeout: 0.5}
                  - expect: {time: 1.5}
                """)
        #expect(
            Self.failures(result).map(\.subject) == [
                "wait-until box.frame.y >= list.frame.height",
                "wait-until keyboard.visible == true",
            ])
        #expect(Self.failures(result).map(\.expected) == [">= list.frame.height = 568.0 within 1 s", "== true within 0.5 s"])
        #expect(Self.failures(result).map(\.actual) == ["box.frame.y = 100.0", "keyboard.visible = false"])
        #expect(Self.failures(result).map(\.location.line) == [8, 9])
    }

    static let autoSettled = """
        steps:
          - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
          - expect: {list.contentOffset.y: {approx: 879.40, within: 0.5}}
          - expect-event: {name: scroll.didEndDecelerating, count: 1}
        """

    @Test func settleAutoSettlesAfterEveryStepThatStartsMotion() throws {
        let auto = try Self.run(Self.list.replacingOccurrences(of: "scene:", with: "settle: auto\nscene:") + Self.autoSettled)
        #expect(Self.failures(auto).isEmpty, "\(auto.outcome)")
        let flag = try Self.run(Self.list + Self.autoSettled, trace: true, settle: true)
        #expect(Self.failures(flag).isEmpty, "\(flag.outcome)")
        #expect(flag.simulatedTime == auto.simulatedTime)
        // Off by default: the same steps check too early.
        let off = try Self.run(Self.list + Self.autoSettled)
        #expect(Self.failures(off).map(\.subject) == ["list.contentOffset.y", "event scroll.didEndDecelerating"])
    }

    @Test func settleAutoFailsAtTheStepWhoseMotionDoesNotEnd() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - animate: {target: box, property: frame.y, to: 400, duration: 100, curve: linear}
                  - wait: 1
                """, settle: true)
        let failure = try #require(Self.failures(result).first)
        #expect(failure.subject == "the settle after this step (--settle)")
        #expect(failure.location.line == 8)
        #expect(result.simulatedTime.seconds == 11)
    }

    @Test func runWithSettleFailsAnAtTheSettlesHavePassed() throws {
        let result = try Self.run(
            Self.list + """
                steps:
                  - focus: field
                  - at: 0.25
                """, settle: true)
        #expect(
            Self.failures(result).first?.actual
                == "the clock had reached 0.5 s, settling after the steps before (--settle); use wait: (seconds from the step before) instead"
        )
    }

    @Test func theStepsClockCountsAWaitAtItsTimeout() throws {
        let scenario = try Self.load(
            Self.list + """
                steps:
                  - settle
                  - wait-until: {until: box.alpha == 1, timeout: 2}
                  - wait: 1
                """)
        #expect(scenario.duration == VirtualTime.seconds(13))
        let auto = try Self.load(
            Self.list.replacingOccurrences(of: "scene:", with: "settle: auto\nscene:") + """
                steps:
                  - tap: box
                  - wait: 1
                  - tap: box
                """)
        #expect(auto.duration == VirtualTime.seconds(21))
        #expect(auto.settlesAfterSteps)
    }

    /// A settle gives the same trace byte for byte on every run.
    @Test func aSettledRunIsDeterministic() throws {
        let text =
            Self.list + """
                steps:
                  - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
                  - settle
                  - focus: field
                  - wait-until: keyboard.visible == true
                  - settle
                """
        let first = try Self.run(text, trace: true)
        let second = try Self.run(text, trace: true)
        #expect(!first.trace.isEmpty)
        #expect(first.trace == second.trace)
    }

    /// A settle on motion that never ends stops at its timeout, within the run's budget.
    @Test func aPerpetualMotionStopsAtTheBudgetOrTheTimeout() throws {
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.budget = WorkBudget(maximumEvents: 100)
        let scenario = try Self.load(
            Self.list + """
                steps:
                  - animate: {target: box, property: frame.y, to: 400, duration: 600, curve: linear}
                  - settle: {timeout: 600}
                """)
        guard case .stopped(let error) = runner.run(scenario).outcome else {
            Issue.record("the run was not stopped by its budget")
            return
        }
        #expect(error.message.hasPrefix("the run needed more than 100 events"))
    }
}
