import RehearseCore
import RehearseTesting
import Testing

/// When the keyboard shows, lifts `panel` above it over 0.3 s; with `spins`, starts a new fade of
/// `panel` on every display frame, forever.
private final class Lifter: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var spins = false
    }

    static let id = "lifter"
    static let summary = "lifts the panel over the keyboard"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = []

    init(configuration: Configuration, context: PluginContext) throws {
        context.on(.keyboardWillShow) { change in
            try context.animate(AnimationParameters(duration: 0.3, curve: .linear)) {
                try context.set(
                    Rect(x: 0, y: 568 - change.frame.size.height - 100, width: 320, height: 100).vector, for: .frame, of: "panel")
            }
        }
        guard configuration.spins else { return }
        context.on(.tick) { tick in
            try context.animate(AnimationParameters(duration: 0.5, curve: .linear)) {
                try context.set(
                    SIMD4(repeating: tick.timestamp.seconds.truncatingRemainder(dividingBy: 1)), for: .alpha, of: "panel")
            }
        }
    }
}

private func panel(_ scene: Scene) throws {
    try scene.add(Node(id: "panel", kind: .view, frame: Rect(x: 0, y: 468, width: 320, height: 100)))
    try scene.add(Node(id: "field", kind: .textField, frame: Rect(x: 20, y: 20, width: 280, height: 30)), to: "panel")
}

@Suite struct HarnessWaitingTests {
    @Test func settleRunsUntilTheKeyboardAndTheLiftHaveEnded() throws {
        let harness = try PluginHarness(Lifter.self, scene: panel)
        harness.send(.focus(NodeTarget(target: "field")))
        harness.settle()
        #expect(harness.now == VirtualTime.seconds(0.5))  // the keyboard's curve, on a vsync
        #expect(harness.number("panel.presentation.frame.y") == 252)
        #expect(harness.simulation.stillMoving().isEmpty)
        harness.settle()
        #expect(harness.now == VirtualTime.seconds(0.5))  // already still: the clock stays
    }

    @Test func aSettleThatNeverEndsFailsAtTheCallerNamingWhatMoves() throws {
        let harness = try PluginHarness(Lifter.self, configuration: .init(spins: true), scene: panel)
        harness.send(.focus(NodeTarget(target: "field")))
        let line = #line
        withKnownIssue {
            harness.settle(timeout: 2)
        } matching: { issue in
            issue.sourceLocation?.line == line + 2  // the call two lines down
                && issue.description.contains(
                    "settle: expected nothing moving within 2 s, but panel.alpha is animating until 2.016666666 s; panel.alpha")
        }
        #expect(harness.now == VirtualTime.seconds(2))
    }

    @Test func waitUntilStopsWhereTheConditionHolds() throws {
        let harness = try PluginHarness(Lifter.self, scene: panel)
        harness.send(.focus(NodeTarget(target: "field")))
        harness.wait(until: "panel.presentation.frame.maxY <= keyboard.frame.y")
        // The lift ends at 0.3 s with the panel's bottom on the keyboard's top (352); the frame
        // before, at 0.283 s, it is 12 points lower.
        #expect(harness.now == VirtualTime.seconds(0.3))
        #expect(harness.number("panel.presentation.frame.y") == 252)
        harness.wait(until: "keyboard.visible == true", timeout: 0)
    }

    @Test func waitUntilFailsAtTheCallerWithBothSides() throws {
        let harness = try PluginHarness(Lifter.self, scene: panel)
        let line = #line
        withKnownIssue {
            harness.wait(until: "panel.frame.y < 100", timeout: 1)
        } matching: { issue in
            issue.sourceLocation?.line == line + 2  // the call two lines down
                && issue.description.contains(
                    "wait(until: panel.frame.y < 100): expected < 100 within 1 s, but panel.frame.y = 468.0")
        }
        #expect(harness.now == VirtualTime.seconds(1))
        withKnownIssue { harness.wait(until: "panel.frame.why < 100") }
        withKnownIssue { harness.wait(until: "panel.frame.y =< 100") }
        withKnownIssue { harness.settle(timeout: .nan) }
        withKnownIssue { harness.settle(timeout: 1e308) }
        withKnownIssue { harness.wait(until: "keyboard.visible == true", timeout: -1) }
        #expect(harness.now == VirtualTime.seconds(1))
    }
}
