import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// Loads and runs scenario text with no plugins.
private func run(_ yaml: String, trace: Bool = false) throws -> ScenarioResult {
    let scenario = try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(yaml.utf8), file: "test.yaml")
    return ScenarioRunner(registry: PluginRegistry([]), recordsTrace: trace).run(scenario)
}

private func failures(_ result: ScenarioResult) -> [Failure] {
    if case .failed(let failures) = result.outcome { return failures }
    return []
}

private let form = """
    name: form
    scene:
      nodes:
        - {id: box, kind: view, frame: [0, 100, 100, 100]}
        - {id: username, kind: textField, frame: [20, 260, 280, 30], enablesReturnKeyAutomatically: true}
        - {id: password, kind: textField, frame: [20, 299, 280, 30], secure: true}
    """

@Suite struct ScenarioRunnerTests {
    @Test func aPassingScenarioUsesEveryKindOfStep() throws {
        let result = try run(
            form + """

                steps:
                  - tap: {x: 30, y: 270}
                  - type: {into: username, text: vijay}
                  - type: {into: password, text: hunter2}
                  - expect: {username.text: vijay, password.text: <redacted>, firstResponder: username}
                  - expect-event: {name: text, count: 2}
                  - return: username
                  - expect-event: {name: return, fields: {target: username}, count: {between: [1, 1]}}
                  - animate: {target: box, property: frame, to: [0, 300, 100, 100], duration: 1, curve: linear}
                  - wait: 0.5
                  - expect: {box.frame.y: 300, box.presentation.frame.y: {approx: 200, within: 1e-6}}
                  - at: 1.0
                  - expect: {box.presentation.frame.y: 300, time: 1.0}
                  - expect-event: {name: animation.finished, fields: {target: box, finished: true}}
                  - set: {box.alpha: 0.5, box.frame.x: 10, statusBar.hidden: true}
                  - expect: {box.alpha: 0.5, box.frame: {x: 10, y: 300}, statusBar.hidden: true}
                  - keyboard: {show: true, height: 300, duration: 0.4, curve: easeOut}
                  - expect: {keyboard.frame.height: 300, keyboard.visible: true}
                  - keyboard: hide
                  - expect: {keyboard.visible: false}
                  - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 0.5, hz: 20}
                  - expect-event: {name: motion, count: 10}
                  - rotate: landscapeLeft
                  - expect: {orientation: landscapeLeft, root.frame.width: 568}
                  - network: false
                  - emit: {name: network, fields: {online: true}}
                  - expect-event: {name: network, count: 2}
                  - resign: all
                  - expect: {firstResponder: null}
                  - expect-no-event: keyboard.didShow
                  - snapshot: end
                """)
        #expect(failures(result).isEmpty, "\(failures(result))")
        guard case .passed = result.outcome else {
            Issue.record("expected a pass, got \(result.outcome)")
            return
        }
        #expect(result.simulatedTime.seconds == 1.5)
    }

    @Test func aFailedExpectationSaysWhatWhereAndWhen() throws {
        let result = try run(
            form + """

                steps:
                  - tap: username
                  - wait: 0.25
                  - expect: {username.frame.y: 250, keyboard.visible: true}
                """)
        let failure = try #require(failures(result).first)
        #expect(failures(result).count == 1)
        #expect(failure.subject == "username.frame.y")
        #expect(failure.expected == "250")
        #expect(failure.actual == "260.0")
        #expect(failure.time.seconds == 0.25)
        #expect(failure.location == SourceLocation(file: "test.yaml", line: 10, column: 14))
        #expect(failure.recentEvents.count == ScenarioRunner.recentEventCount)
        #expect(failure.recentEvents.last?.contains("\"name\":\"tick\"") == true)
    }

    /// A scenario's invariant is checked after every event and `set`; it fails the run at the
    /// step that broke it, with both sides, once per break.
    @Test func aBrokenInvariantFailsTheRunAtTheStepThatBrokeIt() throws {
        let result = try run(
            form + """

                invariants:
                  - name: box above the keyboard
                    when: keyboard.visible == true
                    check: box.frame.maxY <= keyboard.frame.y
                  - {name: no NaN, finite: [box.frame]}
                steps:
                  - tap: username
                  - wait: 0.5
                  - set: {box.frame.y: 300}
                  - wait: 0.5
                  - resign: all
                  - tap: username
                """)
        let failure = try #require(failures(result).first)
        #expect(failures(result).count == 2, "once when set, once when the keyboard came back")
        #expect(failure.subject == "invariant 'box above the keyboard' (scenario)")
        #expect(failure.actual == "box.frame.maxY = 400.0")
        #expect(failure.expected == "<= keyboard.frame.y = 352.0")
        #expect(failure.location.line == 15 && failure.location.column == 5, "the set step")
        #expect(failure.time.seconds == 0.5)
    }

    /// A set-up that breaks an invariant fails even with no step to deliver an event.
    @Test func theSetUpItselfIsCheckedBeforeTheFirstStep() throws {
        let result = try run(
            form + """

                invariants: [{name: box at the left edge, check: box.frame.x == 5}]
                steps: []
                """)
        let failure = try #require(failures(result).first)
        #expect(failures(result).count == 1)
        #expect(failure.subject == "invariant 'box at the left edge' (scenario)")
        #expect(failure.actual == "box.frame.x = 0.0")
        #expect(failure.time == .zero)
    }

    @Test func adjacentEventExpectationsShareAWindowThatTheNextStepCloses() throws {
        let result = try run(
            form + """

                steps:
                  - tap: username
                  - expect-event: keyboard.willShow
                  - expect-event: {name: focus.changed, fields: {to: username}}
                  - expect-no-event: keyboard.willHide
                  - focus: password
                  - expect-event: {name: keyboard.willShow, count: 1}
                  - wait: 0
                  - expect-event: keyboard.willShow
                """)
        let failure = try #require(failures(result).first)
        #expect(failures(result).count == 1)
        #expect(failure.subject == "event keyboard.willShow")
        #expect(failure.expected == "at least one")
        #expect(failure.actual == "0 matching")
        #expect(failure.location.line == 15)
    }

    @Test func anUnexpectedEventAndAWrongCountFail() throws {
        let result = try run(
            form + """

                steps:
                  - tap: username
                  - expect-no-event: {name: focus.changed, fields: {to: username}}
                  - wait: 1
                  - expect-event: {name: keyboard.didShow, count: 2}
                """)
        #expect(failures(result).map(\.expected) == ["none", "exactly 2"])
        #expect(failures(result).map(\.actual) == ["1 matching", "1 matching"])
    }

    /// Scenarios/README.md, "Expectations": `expect-event` fields match numbers within 1e-9
    /// unless given as `{approx, within}`, at any depth (a touch lands 0.3 points from where the
    /// step expects it).
    @Test func eventFieldsMatchApproximately() throws {
        let result = try run(
            form + """

                steps:
                  - touches:
                      - {id: 0, phase: began, point: [100.3, 400], time: 0}
                      - {id: 0, phase: ended, point: [100.3, 400], time: 0.1}
                  - expect-event: {name: touch.began, fields: {x: {approx: 100, within: 0.5}, y: 400}}
                  - expect-no-event: {name: touch.ended, fields: {x: {approx: 100, within: 0.2}}}
                  - expect-event: {name: touch.ended, fields: {x: {approx: 100, within: 0.2}}}
                  - expect-event: {name: touch.began, fields: {x: 100}}
                """)
        // The first two hold; the third finds the lift 0.3 away; the fourth, exact, finds 100.3.
        #expect(failures(result).map(\.expected) == ["at least one", "at least one"])
        #expect(
            failures(result).map(\.actual) == [
                "0 matching (1 named touch.ended, fields differ)",
                "0 matching (1 named touch.began, fields differ)",
            ])
    }

    /// 60 samples a second do not divide a second into whole nanoseconds: the stream still ends
    /// exactly `for` seconds later, with its samples spread without drift.
    /// `emit` with `at` is `InjectAt`: delivered when the clock gets there, not before now.
    @Test func anEmitAtALaterTimeIsDeliveredThen() throws {
        let result = try run(
            form + """

                steps:
                  - emit: {name: network, fields: {online: false}, at: 0.25}
                  - expect-no-event: network
                  - wait: 0.5
                  - expect-event: {name: network, fields: {online: false}}
                """, trace: true)
        #expect(failures(result).isEmpty, "\(failures(result).map(\.subject))")
        #expect(result.trace.contains(#"{"fields":{"online":false},"name":"network","seq":1,"time":0.25}"#))
        #expect(throws: ScenarioError.self) {
            try ScenarioLoader(registry: PluginRegistry([])).load(
                data: Data((form + "\nsteps:\n  - wait: 1\n  - emit: {name: network, fields: {online: false}, at: 0.5}\n").utf8),
                file: "t.yaml")
        }
    }

    @Test func aMotionStreamLastsExactlyItsDuration() throws {
        let result = try run(
            form + """

                steps:
                  - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 1, hz: 60}
                  - expect: {time: 1.0}
                  - expect-event: {name: motion, count: 60}
                  - at: 1.0
                """, trace: true)
        #expect(failures(result).isEmpty, "\(failures(result))")
        #expect(result.simulatedTime == VirtualTime(nanoseconds: 1_000_000_000))
        #expect(result.trace.last?.contains(#""time":0.983333333}"#) == true)
    }

    @Test func theTraceIsTheSameEveryRunAndHoldsNoSecret() throws {
        let yaml =
            form + """

                steps:
                  - tap: password
                  - type: {into: password, text: hunter2}
                  - wait: 1
                """
        let first = try run(yaml, trace: true).trace
        let second = try run(yaml, trace: true).trace
        #expect(first == second)
        #expect(first.count > 10)
        #expect(!first.joined().contains("hunter2"))
    }
}
