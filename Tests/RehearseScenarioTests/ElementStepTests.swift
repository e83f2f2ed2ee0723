import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// The steps that aim at nodes: gestures on a node, `expect-visible` / `expect-not-visible` and
/// `scroll-until-visible`, loaded and run.
@Suite struct ElementStepTests {
    /// A 320 × 400 list (y 100 to 500) of 40 rows of 50 points, and a button above it.
    static let header = """
        name: element
        scene:
          nodes:
            - {id: button, kind: button, frame: [100, 20, 120, 40]}
            - {id: list, kind: scrollView, frame: [0, 100, 320, 400], contentSize: [320, 2000]}
        \((0..<40).map { "    - {id: row\($0), kind: view, frame: [0, \($0 * 50), 320, 50], parent: list}" }.joined(separator: "\n"))

        """

    static func load(_ steps: String) throws -> Scenario {
        try ScenarioLoader(registry: PluginRegistry([])).load(
            data: Data((header + "steps:\n" + steps).utf8), file: "element.yaml")
    }

    static func run(_ steps: String) throws -> ScenarioResult {
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.recordsTrace = true
        return runner.run(try load(steps))
    }

    static func failures(_ result: ScenarioResult) -> [Failure] {
        if case .failed(let failures) = result.outcome { return failures }
        return []
    }

    // MARK: Gestures on nodes

    @Test func aGestureOnANodeLoadsRelativeToItsStartWithDefaults() throws {
        let scenario = try Self.load(
            """
              - drag: {on: list, by: [0, -100]}
              - pinch: {on: button, scale: 2, at: [10, 20]}
              - long-press: button

            """)
        guard case .touchStream(let drag) = scenario.steps[0].action, case .touchStream(let pinch) = scenario.steps[1].action,
            case .touchStream(let press) = scenario.steps[2].action
        else {
            Issue.record("not touch streams")
            return
        }
        #expect(drag.aim?.node == .id("list") && drag.aim?.at == nil)
        #expect(drag.duration == Gesture.defaultDragDuration)
        #expect(drag.events.first?.touch.point == .zero && drag.events.last?.touch.point == Point(x: 0, y: -100))
        #expect(pinch.aim?.node == .id("button") && pinch.aim?.at == Point(x: 10, y: 20))
        #expect(pinch.aim?.fingers == [0, 1])
        #expect(pinch.duration == Gesture.defaultPinchDuration)
        #expect(press.aim?.node == .id("button") && press.duration == Gesture.defaultPressDuration)
        #expect(scenario.duration == Gesture.defaultDragDuration + Gesture.defaultPinchDuration + Gesture.defaultPressDuration)
    }

    /// Each gesture on a node gives the trace of its screen-point form from the node's visible centre.
    @Test(arguments: [
        ("drag: {on: list, by: [0, -150], duration: 0.5}", "drag: {from: [160, 300], to: [160, 150], duration: 0.5}"),
        ("swipe: {on: button, direction: left, distance: 100}", "swipe: {from: [160, 40], direction: left, distance: 100}"),
        ("pinch: {on: list, scale: 1.5, duration: 0.25}", "pinch: {center: [160, 300], scale: 1.5, duration: 0.25}"),
        ("long-press: {target: button, duration: 0.7}", "long-press: {at: [160, 40], duration: 0.7}"),
        // Every gesture on a node takes on: and at:, long-press too (D-Bus Gesture reads its arguments so).
        ("long-press: {on: button, at: [10, 5], duration: 0.7}", "long-press: {at: [110, 25], duration: 0.7}"),
        ("drag: {on: button, at: [0, 0], by: [50, 0]}", "drag: {from: [100, 20], to: [150, 20], duration: 0.3}"),
        // Issue 36: explore writes its slow drags with hold (let go still), as the screen form has it.
        (
            "drag: {on: list, by: [0, -100], duration: 0.5, hold: 0.1}",
            "drag: {from: [160, 300], to: [160, 200], duration: 0.5, hold: 0.1}"
        ),
    ])
    func aGestureOnANodeIsItsScreenFormFromTheNodesCentre(aimed: String, screen: String) throws {
        let onNode = try Self.run("  - \(aimed)\n  - wait: 1\n")
        let onScreen = try Self.run("  - \(screen)\n  - wait: 1\n")
        #expect(onNode.trace == onScreen.trace)
        #expect(onNode.trace.contains { $0.contains("touch.began") })
    }

    @Test func aFlingLiftsWithItsVelocity() throws {
        let result = try Self.run(
            """
              - set: {list.contentOffset.y: 800}
              - fling: {on: list, velocity: [0, -1234.5]}
              - expect-event: {name: scroll.willEndDragging, fields: {target: list, velocity: {x: 0, y: {approx: 1234.5, within: 0.000001}}}}

            """)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
    }

    @Test func aGestureOnANodeThatIsNotVisibleFailsAtItsStep() throws {
        let result = try Self.run("  - wait: 0.5\n  - drag: {on: row30, by: [0, -100]}\n")
        let failure = try #require(Self.failures(result).first)
        #expect(failure.location.description == "element.yaml:48:5")
        #expect(failure.actual == "row30: clipped away by list (its frame starts 1100 pt below list's visible bounds)")
        #expect(!result.trace.contains { $0.contains("touch.") })  // nothing injected
        let offScreen = try #require(Self.failures(try Self.run("  - drag: {on: row0, by: [0, -200]}\n")).first)
        #expect(offScreen.actual.hasPrefix("the gesture on row0 would take a finger to (160, "))
        #expect(offScreen.actual.hasSuffix("), off the 320 × 568 screen"))
    }

    @Test func aGesturesPathMustFitTheScreenAndOnlyAimedKeysGoWithOn() throws {
        let tooLong = #expect(throws: ScenarioError.self) { try Self.load("  - drag: {on: list, by: [0, -600]}\n") }
        #expect(
            tooLong?.description
                == "element.yaml:47:11: error: this drag's fingers span 0 × 600 points, more than the 320 × 568 screen")
        let mixed = #expect(throws: ScenarioError.self) { try Self.load("  - drag: {on: list, from: [1, 1], by: [0, 10]}\n") }
        #expect(mixed?.description.contains("unknown key 'from'") == true, "\(String(describing: mixed))")
        let still = #expect(throws: ScenarioError.self) { try Self.load("  - fling: {on: list, velocity: [0, 0]}\n") }
        #expect(
            still?.description.hasPrefix("element.yaml:47:33: error: velocity must be at most 10000000 points per second") == true
        )
        let unknown = #expect(throws: ScenarioError.self) { try Self.load("  - swipe: {on: lst, direction: up}\n") }
        #expect(unknown?.description.hasPrefix("element.yaml:47:17: error: unknown node 'lst' (did you mean 'list'?)") == true)
    }

    // MARK: Visibility

    @Test func expectVisibleSaysWhichRuleFailed() throws {
        let result = try Self.run(
            """
              - expect-visible: row1
              - expect-not-visible: row30
              - expect-visible: row30
              - set: {list.hidden: true}
              - expect-visible: row1
              - expect-not-visible: button

            """)
        let failures = Self.failures(result)
        #expect(
            failures.map(\.actual) == [
                "row30: clipped away by list (its frame starts 1100 pt below list's visible bounds)",
                "row1: hidden by its ancestor list",
                "visible (120 × 40 pt of it at (100, 20), 100 %)",
            ])
        #expect(failures.map(\.location.line) == [49, 51, 52])
        #expect(failures.map(\.expected) == ["visible", "visible", "not visible"])
    }

    /// Node queries (``NodeQuery``) wherever these steps name a node, found when the step runs.
    @Test func theStepsTakeNodeQueries() throws {
        let result = try Self.run(
            """
              - expect-visible: {kind: button}
              - scroll-until-visible: {node: {id: row30}, in: {kind: scrollView}}
              - drag: {on: {kind: scrollView}, by: [0, 100]}
              - expect-not-visible: {id: row0}
              - expect-not-visible: {kind: view, index: 99}

            """)
        let failures = Self.failures(result)
        #expect(failures.map(\.location.line) == [51])  // not 99 views to find
        #expect(failures.first?.subject.hasPrefix("find ") == true, "\(failures)")
        // 7 drags to row 30, then the drag on the list.
        #expect(result.trace.filter { $0.contains("\"name\":\"touch.began\"") }.count == 8)
    }

    // MARK: Scrolling until visible

    @Test func scrollUntilVisibleDragsUntilTheRowIsWhole() throws {
        let result = try Self.run(
            """
              - scroll-until-visible: {node: row30, in: list}
              - expect-visible: row30
              - expect-event: {name: scroll.willEndDragging, fields: {velocity: {x: 0, y: 0}}}
              - expect-no-event: scroll.didEndDecelerating

            """)
        #expect(Self.failures(result).isEmpty, "\(result.outcome)")
        let drags = result.trace.filter { $0.contains("\"name\":\"touch.began\"") }.count
        // Row 30 ends at 1550 in the content; the list shows 400 points, so the offset must reach
        // 1150. Each drag moves the finger 200 points (in 18 frames of 11.1) and the content 188.9
        // (the pan begins on the first frame past 10): 7 drags reach 1322.2 (6 reach 1133.3).
        #expect(drags == 7)
    }

    @Test func scrollUntilVisibleGivesUpSayingHowFarItGot() throws {
        let result = try Self.run("  - scroll-until-visible: {node: row39, in: list, max: 2}\n  - wait: 1\n")
        let failure = try #require(Self.failures(result).first)
        #expect(failure.subject == "scroll-until-visible row39")
        #expect(failure.expected == "row39 fully visible within 2 drags of list")
        // Row 39 ends at 2000; after two drags of 188.9 the list shows 377.8 to 777.8.
        #expect(failure.actual == "after 2 drags row39 is still 1222.2 pt below list's visible bounds")
        #expect(failure.location.line == 47)
    }

    @Test func scrollUntilVisibleStopsAtTheEndOfTheContent() throws {
        let result = try Self.run("  - scroll-until-visible: {node: row39, in: list, direction: up}\n")
        let failure = try #require(Self.failures(result).first)
        #expect(
            failure.actual
                == "drag 1 reached the end of list's content looking up: row39 is still 1600 pt below list's visible bounds")
        let hidden = try Self.run("  - set: {row39.hidden: true}\n  - scroll-until-visible: {node: row39, in: list}\n")
        #expect(Self.failures(hidden).first?.actual == "row39: hidden")
        #expect(!hidden.trace.contains { $0.contains("touch.") })
        let locked = try Self.run("  - set: {list.scrollEnabled: false}\n  - scroll-until-visible: {node: row39, in: list}\n")
        #expect(
            Self.failures(locked).first?.actual
                == "list does not scroll (its scrollEnabled is false): row39 is still 1600 pt below list's visible bounds")
    }

    /// The rule for a step whose length is known only when it runs: it counts as the most it can
    /// take (20 drags, each 0.3 s moving, 0.1 s held, 5 s at most to rest and a frame of at most
    /// 1 s: ScrollUntilVisible's constants), and no later step may name a time.
    @Test func nothingAfterScrollUntilVisibleNamesATime() throws {
        let scenario = try Self.load("  - wait: 1\n  - scroll-until-visible: {node: row30, in: list}\n  - wait: 1\n")
        #expect(scenario.duration == VirtualTime.seconds(2 + 20 * (0.3 + 0.1 + 5 + 1)))
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.recordsTrace = false
        let result = runner.run(scenario)
        #expect(result.simulatedTime > VirtualTime.seconds(4)!)  // 7 drags of 0.4 s and their rests
        let at = #expect(throws: ScenarioError.self) {
            try Self.load("  - scroll-until-visible: {node: row30, in: list}\n  - at: 30\n")
        }
        #expect(
            at?.description == "element.yaml:48:9: error: at names a time from the start, but scroll-until-visible at line 47 "
                + "takes as long as it takes when it runs; use wait: (seconds from the step before) after it")
        #expect(throws: ScenarioError.self) {
            try Self.load(
                "  - scroll-until-visible: {node: row30, in: list}\n  - emit: {name: network, fields: {online: false}, at: 30}\n")
        }
    }

    @Test func scrollUntilVisibleNeedsAScrollViewHoldingTheNode() throws {
        let notScroll = #expect(throws: ScenarioError.self) {
            try Self.load("  - scroll-until-visible: {node: row3, in: button}\n")
        }
        #expect(notScroll?.description == "element.yaml:47:44: error: node 'button' is not a scroll view; scroll views: list")
        let outside = #expect(throws: ScenarioError.self) {
            try Self.load("  - scroll-until-visible: {node: button, in: list}\n")
        }
        #expect(
            outside?.description
                == "element.yaml:47:34: error: node 'button' is not inside list, so dragging list does not move it")
        let past = #expect(throws: ScenarioError.self) {
            try Self.load("  - scroll-until-visible: {node: row3, in: list, max: 1001}\n")
        }
        #expect(past?.description == "element.yaml:47:55: error: max must be a whole number of drags from 1 to 1000, found 1001")
        let none = #expect(throws: ScenarioError.self) {
            try ScenarioLoader(registry: PluginRegistry([])).load(
                data: Data(
                    """
                    name: no scroll view
                    scene: {nodes: [{id: a, kind: label, frame: [0, 0, 10, 10]}]}
                    steps: [{scroll-until-visible: {node: a, in: a}}]
                    """.utf8), file: "none.yaml")
        }
        #expect(none?.description == "none.yaml:3:46: error: node 'a' is not a scroll view; scroll views: none")
    }
}
