import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import Testing

@testable import RehearseSession

/// The methods of `org.rehearse.Simulator1` called directly on a session, no bus and no libdbus:
/// each error is the named one a client would get.
struct SimulatorSessionTests {
    private func session(
        _ yaml: String = "name: s\nplugins: [gateway]\nsteps: []\n",
        mode: ClockMode = .manual
    ) throws -> SimulatorSession {
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(yaml.utf8), file: "setup")
        return try SimulatorSession(setup: setup, registry: shippedPlugins, mode: mode)
    }

    /// The kind of refusal `body` fails with, or nil when it succeeds (or fails otherwise).
    private func failure(_ body: () throws -> Void) -> SessionError.Kind? {
        do {
            try body()
            return nil
        } catch let failure as SessionError {
            return failure.kind
        } catch {
            Issue.record("not a SessionError: \(error)")
            return nil
        }
    }

    @Test func injectionsAnswerTheirSequenceAndNameTheirErrors() throws {
        let session = try session()
        #expect(try session.inject("network", ["online": false]) == 1)
        #expect(try session.injectStrings("login.submit", [("username", "vijay")]) == 2)
        #expect(failure { _ = try session.inject("netwrok", [:]) } == .unknownEvent)
        #expect(failure { _ = try session.inject("login.submit", ["user": "x"]) } == .invalidField)
        #expect(failure { _ = try SimulatorSession.injectionTime(.infinity) } == .invalidField)
        #expect(session.takeDeliveredEvents().map(\.event.name) == ["network", "login.submit"])
        #expect(session.takeDeliveredEvents().isEmpty)
    }

    /// Every refusal of an injection names its event first, as `motion: field "x": ...` does; the
    /// attack on the last stop found `InjectStrings`' refusal of a key that is both a value and a
    /// group (`a=1`, `a.b=2`) naming only the field.
    @Test func anInjectStringsRefusalNamesItsEvent() throws {
        let session = try session()
        do {
            _ = try session.injectStrings("login.submit", [("username", "1"), ("username.first", "2")])
            Issue.record("a key both a value and a group was taken")
        } catch {
            #expect(error.kind == .invalidField)
            #expect(error.description.hasPrefix("login.submit: "), "\(error)")
        }
        #expect(session.takeDeliveredEvents().isEmpty)
    }

    @Test func eventsWaitingOnTheClockAreCapped() throws {
        let session = try session()
        let later = try SimulatorSession.injectionTime(100)
        for _ in 0..<SimulatorSession.maximumPendingEvents {
            _ = try session.inject("network", ["online": true], at: later)
        }
        #expect(failure { _ = try session.inject("network", ["online": true], at: later) } == .limit)
        #expect(try session.advance(by: 100) { true } == 100)
        #expect(session.takeDeliveredEvents().count == SimulatorSession.maximumPendingEvents)
        _ = try session.inject("network", ["online": true], at: try SimulatorSession.injectionTime(200))
    }

    /// A gesture's touches count with the events already waiting on the clock: past the cap it
    /// is a `limit` and nothing is injected; a long gesture runs in slices, as `Advance` does.
    @Test func aGesturesTouchesAreCappedWithTheWaitingEventsAndRunInSlices() throws {
        let list =
            "name: s\nscene: {nodes: [{id: list, kind: scrollView, frame: [0, 0, 320, 400], contentSize: [320, 3000]}]}\nsteps: []\n"
        let session = try session(list)
        let later = try SimulatorSession.injectionTime(100)
        for _ in 0..<(SimulatorSession.maximumPendingEvents - 10) {
            _ = try session.inject("network", ["online": true], at: later)
        }
        let waiting = session.simulation.timeline.pendingCount
        #expect(failure { _ = try session.gesture("drag", ["on": "list", "by": [0, -100]]) { true } } == .limit)
        #expect(session.simulation.timeline.pendingCount == waiting)
        #expect(session.simulation.now == .zero)
        let fresh = try self.session(list)
        var slices = 0
        let reached = try fresh.gesture("drag", ["on": "list", "by": [0, -100], "duration": 20]) {
            slices += 1
            return true
        }
        #expect(reached == 20)
        #expect(slices >= 12)  // 1,200 frames of touches, pans and scrolls, 100 items a slice
    }

    /// A strip that scrolls across above a list: two scroll views side by side for two drags.
    private static let stripAndList = """
        name: s
        scene:
          nodes:
            - {id: strip, kind: scrollView, frame: [0, 0, 320, 200], contentSize: [1280, 200]}
            - {id: list, kind: scrollView, frame: [0, 200, 320, 368], contentSize: [320, 2000]}
        steps: []

        """

    /// Two gestures put on the clock at one time (two AT-SPI scroll actions before the clock
    /// moves) take different fingers, the second passing over the first's, which is not down yet
    /// but waits on the clock: the first view scrolls as it does when dragged alone, not flung by
    /// a finger jumping between the views.
    @Test func gesturesScheduledTogetherTakeDifferentFingers() throws {
        let across: Fields = ["on": "strip", "by": [-160, 0], "hold": 0.1]
        let down: Fields = ["on": "list", "by": [0, -184], "hold": 0.1]
        func dragged(_ drags: [Fields]) throws -> (x: Double, fingers: [Int]) {
            let session = try session(Self.stripAndList)
            for drag in drags { _ = try session.scheduleGesture("drag", drag) }
            _ = try session.advance(by: 2) { true }
            let began = session.takeDeliveredEvents().compactMap { delivered -> Int? in
                guard case .touchBegan(let touch) = delivered.event else { return nil }
                return touch.id
            }
            return (session.simulation.scene["strip"]?.contentOffset.x ?? .nan, began)
        }
        let alone = try dragged([across])
        #expect(alone.x > 100)
        let both = try dragged([across, down])
        #expect(both.fingers == [0, 1])
        #expect(both.x == alone.x)
    }

    /// Fingers down or waiting on the clock count against the screen's most: one gesture more is
    /// a `limit`, and nothing is injected.
    @Test func scheduledGesturesPastTheScreensFingersAreALimit() throws {
        let session = try session(Self.stripAndList)
        for _ in 0..<GestureRules.maximumTouches { _ = try session.scheduleGesture("drag", ["on": "list", "by": [0, -100]]) }
        let waiting = session.simulation.timeline.pendingCount
        #expect(failure { _ = try session.scheduleGesture("drag", ["on": "strip", "by": [-100, 0]]) } == .limit)
        #expect(session.simulation.timeline.pendingCount == waiting)
    }

    @Test func aLongAdvanceRunsInSlicesAndStopsWhenAsked() throws {
        // The panner's scroll bar wants every frame: 60 ticks a second.
        let session = try session("name: s\nplugins: [panner]\nsteps: []\n")
        var slices = 0
        let reached = try session.advance(by: 1000) {
            slices += 1
            // Every slice's events are there to be sent, never more than a slice's worth.
            #expect(session.takeDeliveredEvents().count <= SimulatorSession.advanceSlice)
            return slices < 3
        }
        #expect(slices == 3)
        #expect(reached < 1000)
        #expect(try session.advance(by: 1) { true } == reached + 1)
        #expect(failure { _ = try session.advance(by: 1e7) { true } } == .invalidField)
        let realtime = try self.session(mode: .realtime)
        #expect(failure { _ = try realtime.advance(by: 1) { true } } == .wrongMode)
    }

    @Test func aLongSettleRunsInSlicesAndStopsWhenAsked() throws {
        // An animation of 600 s: 36,000 frames of a few items each, no frame a slice by itself.
        let session = try session("name: s\nscene:\n  nodes:\n    - {id: box, kind: view, frame: [0, 0, 100, 100]}\nsteps: []\n")
        try session.simulation.animator.animate(AnimationParameters(duration: 600, curve: .linear), owner: "test") {
            try session.simulation.animator.set(SIMD4(0, 0, 0, 0), for: .alpha, of: "box")
        }
        var slices = 0
        let stopped = failure {
            _ = try session.settle(within: 600) {
                slices += 1
                #expect(session.takeDeliveredEvents().count <= SimulatorSession.advanceSlice)
                return slices < 3
            }
        }
        #expect(stopped == .timeout)
        #expect(slices == 3)
        #expect(session.simulation.now.seconds < 10)
    }

    @Test func setUpMethodsRebuildOrChangeNothing() throws {
        let session = try session()
        #expect(failure { try session.loadScenario("name: [") } == .invalidScenario)
        #expect(failure { try session.configure("gatway", [:]) } == .unknownPlugin)
        #expect(failure { try session.configure("gateway", ["transition": "spin"]) } == .invalidField)
        #expect(try session.value(at: "gateway.child") == "login")
        try session.configure("gateway", ["transition": "fade"])
        #expect(session.setup.plugins.map(\.id) == ["gateway"])
        try session.loadScenario("name: l\nplugins: [login-animator]\nsteps: []\n")
        #expect(session.plugins().filter(\.installed).map(\.id) == ["login-animator"])
        #expect(failure { _ = try session.value(at: "gateway.child") } == .unknownPath)
        #expect(session.properties[.mode] == "manual")
        #expect(session.properties[.eventCount] == 0)
    }

    /// A recorded session replays, through `rehearse run`'s runner, to the trace it delivered:
    /// taps, typing into a secure field (written masked), injections ahead of time, and
    /// the plugins' configuration changed on the way (the recording starts over from it).
    @Test func aRecordedSessionReplaysToTheSameTrace() throws {
        let file = URL(filePath: #filePath).appending(path: "../../../Scenarios/login-flow/login-flow.yaml").standardized
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: file), file: file.path)
        let session = try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
        session.startRecording(as: "recorded")
        try session.configure("gateway", ["transition": .string("fade")])
        _ = try session.inject("tap", ["target": .string("username")])
        _ = try session.advance(by: 0.3) { true }
        _ = try session.inject("text", ["target": .string("username"), "text": .string("vijay")])
        _ = try session.inject("return", ["target": .string("username")])
        _ = try session.inject("text", ["target": .string("password"), "text": .string("correct horse")])
        _ = try session.inject("network", ["online": .bool(false)], at: try SimulatorSession.injectionTime(0.9))
        _ = try session.inject("return", ["target": .string("password")])
        _ = try session.advance(by: 1.25) { true }
        let delivered = session.takeDeliveredEvents().map(\.traceLine)

        let text = try #require(try session.recording())
        #expect(!text.contains("correct horse"), "a password never reaches the file")
        // Masked, as many characters as were typed ("correct horse" is 13).
        #expect(text.contains(#"- emit: {name: "text", fields: {"target": "password", "text": "•••••••••••••"}}"#))
        #expect(text.contains(#"plugins: {"login-animator": {"submitAnimation": true}, "gateway": {"transition": "fade"}}"#))
        let replay = try ScenarioLoader(registry: shippedPlugins).load(data: Data(text.utf8), file: "recorded.yaml")
        let result = ScenarioRunner(registry: shippedPlugins, recordsTrace: true).run(replay)
        #expect(delivered.count > 90)
        let firstDifference = zip(result.trace, delivered).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "\(firstDifference.map { "\(result.trace[$0])\n\(delivered[$0])" } ?? "")")
        #expect(result.trace == delivered)
        #expect(replay.duration == VirtualTime.seconds(1.55))
    }

    /// A plugin event injected with a secure field's text in it is recorded redacted, as it was
    /// delivered, and replays to the same trace. (Once, the file had the password in clear.)
    @Test func anInjectedEventCarryingASecretIsRecordedRedacted() throws {
        let file = URL(filePath: #filePath).appending(path: "../../../Scenarios/login-flow/login-flow.yaml").standardized
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: file), file: file.path)
        let session = try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
        session.startRecording(as: "recorded")
        _ = try session.inject("text", ["target": .string("password"), "text": .string("correct horse")])
        _ = try session.inject("login.failed", ["username": .string("vijay"), "reason": .string("pw correct horse")])
        let delivered = session.takeDeliveredEvents().map(\.traceLine)
        let text = try #require(try session.recording())
        #expect(!text.contains("correct horse"), "\(text)")
        let replay = try ScenarioLoader(registry: shippedPlugins).load(data: Data(text.utf8), file: "recorded.yaml")
        #expect(ScenarioRunner(registry: shippedPlugins, recordsTrace: true).run(replay).trace == delivered)
    }

    /// An empty text typed into a secure field is recorded empty, so the replay's return key is
    /// swallowed as the live one was (`enablesReturnKeyAutomatically`) and nothing is submitted.
    /// (Once, it was recorded as `<redacted>`: ten characters, and the replay submitted.)
    @Test func anEmptySecureTextReplaysEmpty() throws {
        let file = URL(filePath: #filePath).appending(path: "../../../Scenarios/login-flow/login-flow.yaml").standardized
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: file), file: file.path)
        let session = try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
        session.startRecording(as: "recorded")
        _ = try session.inject("tap", ["target": .string("password")])
        _ = try session.inject("text", ["target": .string("password"), "text": .string("")])
        #expect(try session.inject("return", ["target": .string("password")]) == 0, "swallowed: the field is empty")
        _ = try session.advance(by: 0.5) { true }
        let delivered = session.takeDeliveredEvents().map(\.traceLine)
        let text = try #require(try session.recording())
        let replay = try ScenarioLoader(registry: shippedPlugins).load(data: Data(text.utf8), file: "recorded.yaml")
        let result = ScenarioRunner(registry: shippedPlugins, recordsTrace: true).run(replay)
        #expect(!result.trace.contains { $0.contains("login.submit") })
        #expect(result.trace == delivered)
    }
}
