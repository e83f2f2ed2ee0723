import RehearseCore
import RehearseTesting
import Testing

/// The form's panel and a 320 × 300 list (y 100 to 400) of 2,000 points of content under it.
private func list(_ scene: Scene) throws {
    try scene.add(Node(id: "panel", kind: .view, frame: Rect(x: 0, y: 468, width: 320, height: 100)))
    var list = Node(id: "list", kind: .scrollView, frame: Rect(x: 0, y: 100, width: 320, height: 300))
    list.contentSize = Size(width: 320, height: 2000)
    try scene.add(list)
    try scene.add(Node(id: "row20", kind: .view, frame: Rect(x: 0, y: 1000, width: 320, height: 50)), to: "list")
}

/// The harness's gestures on nodes: the same fingers as the scenario steps (``Gesture``), placed
/// on the node's visible centre when called.
@Suite struct HarnessGestureTests {
    private static func harness() throws -> PluginHarness<IdlePlugin> {
        try PluginHarness(IdlePlugin.self, scene: list)
    }

    private static func touches(_ harness: PluginHarness<IdlePlugin>) -> [String] {
        harness.delivered.filter { $0.event.touch != nil }.map {
            "\($0.event.name) \($0.time.seconds) \($0.event.fields["y"]?.number ?? .nan)"
        }
    }

    @Test func aDragOnANodeIsTheDragStepFromItsVisibleCentre() throws {
        let harness = try Self.harness()
        harness.drag(on: .id("list"), by: Point(x: 0, y: -150))
        #expect(harness.now == Gesture.defaultDragDuration)
        #expect(Self.touches(harness).first == "touch.began 0.0 250.0")  // the list's centre
        #expect(Self.touches(harness).last == "touch.ended 0.3 100.0")
        // The content follows the finger once the pan has begun (the first frame past 10 points: 16.7).
        #expect(abs(harness.number("list.contentOffset.y") - (150 - 150.0 / 18 * 2)) < 1e-9)
    }

    @Test func aFlingReleasesTheScrollViewWithItsVelocity() throws {
        let harness = try Self.harness()
        harness.fling(on: .id("list"), velocity: Point(x: 0, y: -2500))
        let release = try #require(harness.delivered.compactMap { EventKind.scrollWillEndDragging.payload($0.event) }.first)
        #expect(abs(release.velocity.y - 2500) < 1e-6 && release.velocity.x == 0)
    }

    @Test func aSwipeAPinchAndALongPressOnNodes() throws {
        let harness = try Self.harness()
        harness.swipe(on: .id("panel"), direction: .left, distance: 100)
        #expect(harness.delivered.contains { EventKind.gestureSwipe.payload($0.event)?.direction == .left })
        harness.pinch(on: .id("panel"), scale: 0.5)
        #expect(
            harness.delivered.compactMap { EventKind.gesturePinch.payload($0.event) }.last.map { ($0.state, $0.scale) }
                .map { $0 == .ended && abs($1 - 0.5) < 1e-9 } == true)
        harness.longPress(on: .id("panel"))
        #expect(harness.delivered.contains { EventKind.gestureLongPress.payload($0.event)?.state == .began })
        #expect(harness.now == TouchStream.swipeStepDuration + Gesture.defaultPinchDuration + Gesture.defaultPressDuration)
    }

    @Test func isVisibleAndAGestureOnANodeThatIsNot() throws {
        let harness = try Self.harness()
        #expect(harness.isVisible(.id("list")) && !harness.isVisible(.kind(.view).at(1)) && !harness.isVisible(.id("nothing")))
        withKnownIssue {
            harness.drag(on: .id("row20"), by: Point(x: 0, y: -100))
        } matching: { issue in
            issue.description.contains(
                "could not drag: row20: clipped away by list (its frame starts 700 pt below list's visible bounds)")
        }
        #expect(harness.now == .zero && Self.touches(harness).isEmpty)
    }
}

/// A plugin that does nothing: the harness needs one to test.
final class IdlePlugin: Plugin {
    struct Configuration: Codable, Sendable, Equatable {}
    static let id = "idle"
    static let summary = "does nothing"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = []

    init(configuration: Configuration, context: PluginContext) throws {}
}
