import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// The touch steps: what they load into, what they refuse, and what they do when run.
@Suite struct TouchStepTests {
    static let header = """
        name: touch
        scene:
          nodes:
            - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 4000]}
            - {id: button, kind: button, frame: [100, 100, 120, 40], parent: list}

        """

    static func load(_ steps: String, header: String = header) throws -> Scenario {
        try ScenarioLoader(registry: PluginRegistry([])).load(data: Data((header + "steps:\n" + steps).utf8), file: "touch.yaml")
    }

    static func stream(_ scenario: Scenario, step: Int = 0) throws -> TouchStreamStep {
        guard case .touchStream(let stream) = try #require(scenario.steps.dropFirst(step).first).action else {
            Issue.record("step \(step) is not a touch stream")
            return TouchStreamStep(events: [], duration: .zero)
        }
        return stream
    }

    static func seconds(_ value: Double) -> VirtualTime { VirtualTime.seconds(value) ?? .zero }

    @Test func aDragMovesOnceADisplayFrameAndLiftsAfterItsHold() throws {
        let scenario = try Self.load("  - drag: {from: [160, 500], to: [160, 200], duration: 0.5, hold: 0.25}\n  - wait: 1\n")
        let stream = try Self.stream(scenario)
        #expect(stream.events.count == 32)  // began, 30 frames at 60 Hz, ended
        #expect(
            stream.events.first == TimedTouch(offset: .zero, phase: .began, touch: Touch(id: 0, point: Point(x: 160, y: 500))))
        let moves = stream.events.filter { $0.phase == .moved }
        #expect(moves.map(\.offset) == (1...30).map { VirtualTime(nanoseconds: Int64($0) * 1_000_000_000 / 60) })
        #expect(moves[14].touch.point == Point(x: 160, y: 350))  // half way at frame 15
        #expect(
            stream.events.last
                == TimedTouch(offset: Self.seconds(0.75), phase: .ended, touch: Touch(id: 0, point: Point(x: 160, y: 200))))
        #expect(stream.duration == Self.seconds(0.75))
        #expect(scenario.duration == Self.seconds(1.75))  // the step moves the clock as wait does
    }

    @Test func aDragBetweenFramesEndsOnItsOwnTime() throws {
        let stream = try Self.stream(try Self.load("  - drag: {from: [10, 10], to: [10, 110], duration: 0.02}\n"))
        #expect(
            stream.events.map(\.offset) == [.zero, VirtualTime(nanoseconds: 16_666_666), Self.seconds(0.02), Self.seconds(0.02)])
        #expect(stream.events[2].touch.point == Point(x: 10, y: 110))
    }

    @Test func aSwipeIsAFastDragInItsDirection() throws {
        let stream = try Self.stream(try Self.load("  - swipe: {from: [300, 300], direction: left, distance: 150}\n"))
        #expect(stream.duration == TouchStream.swipeStepDuration)
        #expect(stream.events.last?.touch.point == Point(x: 150, y: 300))
        let byDefault = try Self.stream(try Self.load("  - swipe: {from: [160, 500], direction: up}\n"))
        #expect(byDefault.events.last?.touch.point == Point(x: 160, y: 300))  // 200 points
    }

    @Test func aPinchMovesTwoFingersApartToItsScale() throws {
        let stream = try Self.stream(try Self.load("  - pinch: {center: [160, 284], scale: 2, duration: 0.25}\n"))
        #expect(Set(stream.events.map(\.touch.id)) == [0, 1])
        #expect(stream.events.prefix(2).map(\.touch.point) == [Point(x: 110, y: 284), Point(x: 210, y: 284)])
        #expect(stream.events.suffix(2).map(\.touch.point) == [Point(x: 60, y: 284), Point(x: 260, y: 284)])
        #expect(stream.events.suffix(2).map(\.phase) == [.ended, .ended])
    }

    @Test func rawTouchesKeepTheirFingersAcrossStepsAndGesturesUseOthers() throws {
        let scenario = try Self.load(
            """
              - touches:
                  - {id: 0, phase: began, point: [10, 10], time: 0}
              - drag: {from: [100, 100], to: [100, 200], duration: 0.1}
              - touches:
                  - {id: 0, phase: ended, point: [10, 10], time: 0.05}

            """)
        #expect(try Self.stream(scenario, step: 1).events.first?.touch.id == 1)
        #expect(throws: ScenarioError.self) {
            try Self.load(
                "  - touches:\n      - {id: 0, phase: began, point: [10, 10], time: 0}\n      - {id: 0, phase: began, point: [10, 10], time: 0}\n"
            )
        }
    }

    @Test func pointsAreCheckedOnTheScreenOfTheOrientationReached() throws {
        _ = try Self.load("  - rotate: landscapeLeft\n  - long-press: {at: [500, 100], duration: 1}\n")
        #expect(throws: ScenarioError.self) { try Self.load("  - long-press: {at: [500, 100], duration: 1}\n") }
    }

    /// ``ScenarioLimits/touchEvents`` over the whole file: at the limit and one past it (a
    /// 1 Hz display writes a drag of d seconds as d + 3 events).
    @Test func theTouchEventsOfAFileHaveALimit() throws {
        let device = "name: touch\ndevice: {width: 320, height: 568, hz: 1, keyboard: [216, 162]}\n"
        let limit = ScenarioLimits.touchEvents
        _ = try Self.load("  - drag: {from: [1, 1], to: [2, 2], duration: \(limit - 3)}\n", header: device)
        let error = #expect(throws: ScenarioError.self) {
            try Self.load(
                "  - drag: {from: [1, 1], to: [2, 2], duration: \(limit - 5)}\n  - long-press: {at: [1, 1], duration: 1}\n",
                header: device)
        }
        #expect(error?.description.hasSuffix("the touch steps of a scenario write at most \(limit)") == true)
    }

    // MARK: Running

    @Test func aLongPressAtATargetPressesItsCentreWhereItIsWhenItRuns() throws {
        let scenario = try Self.load(
            """
              - set: {list.contentOffset.y: 50}
              - long-press: {target: button, duration: 0.6}
              - expect-event: {name: touch.began, fields: {x: 160, y: 70, target: button}}
              - expect-event: {name: gesture.longPress, fields: {state: began, target: button}}
              - expect-no-event: tap

            """)
        let result = ScenarioRunner(registry: PluginRegistry([])).run(scenario)
        guard case .passed = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
    }

    @Test func aDragFlingsAScrollViewAndTheRunMatchesTheFormula() throws {
        // 300 points up in 0.25 s (15 frames of 20): tracked from the first frame, 280 points;
        // let go at 1,200 points per second, at rest 280 + 1200 / (1000 · -ln 0.998) = 879.4.
        let scenario = try Self.load(
            """
              - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
              - expect: {list.contentOffset.y: {approx: 280, within: 1e-5}}
              - expect-event: {name: scroll.willEndDragging, fields: {velocity: {x: 0, y: 1200}}}
              - wait: 5
              - expect: {list.contentOffset.y: {approx: 879.4, within: 0.5}}
              - expect-event: scroll.didEndDecelerating

            """)
        let result = ScenarioRunner(registry: PluginRegistry([])).run(scenario)
        guard case .passed = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
    }
}
