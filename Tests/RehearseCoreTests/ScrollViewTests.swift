import Foundation
import Testing

@testable import RehearseCore

/// Scroll views dragged and flung by touches, checked frame by frame against the published
/// formulas written out here (not the code under test): UIKit's rubber band
/// `(1 - 1 / (x c / d + 1)) d` with c = 0.55 (Grant Paul, 2014), deceleration
/// `x0 + v0 (r^(1000 t) - 1) / (1000 ln r)` and its limit (WWDC18 "Designing Fluid Interfaces",
/// Lobanov 2019), and the critically damped bounce `(x0 + (v0 + 10 x0) t) e^(-10 t)`
/// (mass 1, stiffness 100: Lobanov 2019). Within 0.5 points, at the display's frame times.
@Suite struct ScrollViewTests {
    /// A text field above a 320 × 400 scroll view (y 100 to 500) over 2,000 points of content:
    /// vertical offsets 0 to 1,600.
    static func simulation(_ configure: (inout Node) -> Void = { _ in }) throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("field", .textField, Rect(x: 20, y: 20, width: 280, height: 30))
        try simulation.addNode("scroll", .scrollView, Rect(x: 0, y: 100, width: 320, height: 400)) {
            $0.contentSize = Size(width: 320, height: 2000)
            configure(&$0)
        }
        try simulation.addNode("content", .view, Rect(x: 0, y: 0, width: 320, height: 2000), parent: "scroll")
        return (simulation, simulation.record())
    }

    static func rubberBand(_ x: Double, _ d: Double) -> Double { (1 - 1 / (x * 0.55 / d + 1)) * d }

    static func decelerated(_ x0: Double, _ v0: Double, _ r: Double, _ t: Double) -> Double {
        x0 + v0 * (pow(r, 1000 * t) - 1) / (1000 * log(r))
    }

    static func seconds(_ time: Double) -> VirtualTime { VirtualTime.seconds(time) ?? .zero }

    /// The offset at 60 Hz frame `k` after a release at `release` seconds.
    static func offset(_ simulation: Simulation, frame k: Int, after release: Double) throws -> (Double, Double) {
        let frame = simulation.displayLink.frame(after: seconds(release)) + Int64(k - 1)
        let time = simulation.displayLink.time(ofFrame: frame)
        simulation.run(until: time)
        return (try simulation.number("scroll.contentOffset.y"), (time - seconds(release)).seconds)
    }

    static func fields(_ log: EventLog, _ name: String) -> [Fields] {
        log.events.filter { $0.event.name == name }.map(\.event.fields)
    }

    static func y(_ value: FieldValue?) -> Double? {
        if case .dictionary(let fields)? = value { fields["y"]?.number } else { nil }
    }

    // MARK: Properties

    @Test func theTouchPropertiesReadAndSetThroughPathsAndNodeFields() throws {
        let (simulation, _) = try Self.simulation()
        #expect(try simulation.value(at: "scroll.decelerationRate") == "normal")
        #expect(try simulation.value(at: "scroll.bounces") == true)
        #expect(try simulation.value(at: "scroll.keyboardDismissMode") == "none")
        try simulation.setValue("fast", at: "scroll.decelerationRate")
        #expect(simulation.scene["scroll"]?.decelerationRate == .fast)
        try simulation.setValue(0.95, at: "scroll.decelerationRate")
        #expect(try simulation.value(at: "scroll.decelerationRate") == 0.95)
        try simulation.setValue("interactive", at: "scroll.keyboardDismissMode")
        #expect(simulation.scene["scroll"]?.keyboardDismissMode == .interactive)
        #expect(throws: PathError.self) { try simulation.setValue(1, at: "scroll.decelerationRate") }
        #expect(throws: PathError.self) { try simulation.setValue("slow", at: "scroll.decelerationRate") }
        #expect(throws: PathError.self) { try simulation.setValue("always", at: "scroll.keyboardDismissMode") }
        let (node, _) = try Node.read(fields: [
            "id": "list", "kind": "scrollView", "frame": [0, 0, 10, 10],
            "pagingEnabled": true, "bounces": false, "decelerationRate": 0.9,
        ])
        #expect(node.pagingEnabled && !node.bounces && node.decelerationRate.value == 0.9)
        #expect(throws: FieldError.self) {
            try Node.read(fields: ["id": "list", "kind": "scrollView", "frame": [0, 0, 10, 10], "decelerationRate": 0])
        }
    }

    // MARK: Tracking and the rubber band

    @Test func theContentFollowsTheFingerOneToOneFromWhereThePanBegan() throws {
        let (simulation, log) = try Self.simulation()
        // 200 points up in 12 frames of 16.67: the pan begins at the first (past 10 points).
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 0.2, hold: 0.1)
        #expect(abs(try simulation.number("scroll.contentOffset.y") - (200 - 200.0 / 12)) < 1e-9)
        #expect(log.names.contains("scroll.willBeginDragging"))
        #expect(Self.fields(log, "scroll.didScroll").count == 11)  // frames 2 to 12 each moved it
    }

    @Test(arguments: [false, true])
    func aHoldPastAnEdgeIsRubberBandedAndSpringsBack(atTheEnd: Bool) throws {
        let (simulation, log) = try Self.simulation { if atTheEnd { $0.contentOffset = Point(x: 0, y: 1600) } }
        let (from, to) = atTheEnd ? (450.0, 150.0) : (150.0, 450.0)
        // 300 points in 30 frames of 10: the pan begins at the second frame, 20 points in.
        try simulation.drag(from: Point(x: 160, y: from), to: Point(x: 160, y: to), duration: 0.5, hold: 0.2)
        let edge = atTheEnd ? 1600.0 : 0.0
        let sign = atTheEnd ? 1.0 : -1.0
        let banded = sign * Self.rubberBand(280, 400)
        #expect(abs(try simulation.number("scroll.contentOffset.y") - (edge + banded)) <= 0.5)
        // Released still: x(t) = edge + banded (1 + 10 t) e^(-10 t).
        for k in [1, 5, 12, 30] {
            let (offset, t) = try Self.offset(simulation, frame: k, after: 0.7)
            #expect(abs(offset - (edge + banded * (1 + 10 * t) * exp(-10 * t))) <= 0.5, "frame \(k)")
        }
        simulation.run(until: Self.seconds(3))
        #expect(try simulation.number("scroll.contentOffset.y") == edge)
        #expect(Self.y(Self.fields(log, "scroll.willEndDragging").first?["targetContentOffset"]) == edge)
        #expect(Self.y(Self.fields(log, "scroll.didEndDecelerating").first?["contentOffset"]) == edge)
    }

    @Test func withoutBouncesADragStopsAtTheEdge() throws {
        let (simulation, _) = try Self.simulation { $0.bounces = false }
        try simulation.drag(from: Point(x: 160, y: 150), to: Point(x: 160, y: 450), duration: 0.5, hold: 0.2)
        #expect(try simulation.number("scroll.contentOffset.y") == 0)
    }

    /// Gestures are built-in events too: an injected `gesture.pan` on a scroll view drives it as
    /// a recognised one does (D-Bus `Inject` "takes the gestures as a convenience").
    @Test func anInjectedPanDragsAndFlingsTheScrollView() throws {
        let (simulation, log) = try Self.simulation()
        func pan(_ state: GestureState, _ y: Double, velocity: Double = 0) throws {
            try simulation.inject(
                .gesturePan(
                    PanGesture(
                        state: state, target: "scroll", translation: Point(x: 0, y: y),
                        velocity: Point(x: 0, y: velocity), location: Point(x: 160, y: 300 + y))))
        }
        try pan(.began, 0)
        try pan(.changed, -150)
        #expect(try simulation.number("scroll.contentOffset.y") == 150)
        try pan(.ended, -150, velocity: -1000)
        simulation.run(until: Self.seconds(5))
        // 150 + 1000 / (1000 · -ln 0.998) = 649.5
        #expect(abs(try simulation.number("scroll.contentOffset.y") - (150 + 1000 / (-1000 * Foundation.log(0.998)))) <= 0.5)
        #expect(log.names.contains("scroll.didEndDecelerating"))
    }

    /// A gesture from outside (D-Bus `Inject`, `emit`) is a finger's: its velocity at most
    /// ``ScenarioLimits/gestureVelocity`` on each axis and its location on the screen. A pan let go
    /// at 1e308 points per second used to carry the offset to infinity.
    @Test func anInjectedPanFasterThanTheLimitOrOffTheScreenIsRefused() throws {
        let (simulation, log) = try Self.simulation()
        let limit = ScenarioLimits.gestureVelocity
        func pan(_ state: GestureState, velocity: Double = 0, at location: Point = Point(x: 160, y: 300)) throws {
            try simulation.inject(
                .gesturePan(
                    PanGesture(
                        state: state, target: "scroll", translation: .zero,
                        velocity: Point(x: 0, y: velocity), location: location)))
        }
        try pan(.began)
        for velocity in [limit.nextUp, -limit.nextUp, 1e308, -Double.greatestFiniteMagnitude] {
            #expect(throws: InjectionError.self) { try pan(.ended, velocity: velocity) }
        }
        #expect(throws: InjectionError.self) { try pan(.changed, at: Point(x: 160, y: 1e308)) }
        let longPress = LongPressGesture(state: .began, target: "scroll", location: Point(x: -1, y: 300))
        #expect(throws: InjectionError.self) { try simulation.inject(.gestureLongPress(longPress)) }
        #expect(simulation.scrolling.isDragging("scroll") && !log.names.contains("scroll.willEndDragging"))
        try pan(.ended, velocity: -limit)
        simulation.run(until: Self.seconds(120))
        #expect(try simulation.number("scroll.contentOffset.y") == 1600)
        #expect(log.names.contains("scroll.didEndDecelerating"))
    }

    /// `scrollEnabled: false` (UIKit's `isScrollEnabled`): a finger in the scroll view pans its
    /// content instead, and the scroll view stays where it is.
    @Test func aScrollViewThatCannotScrollLetsTheFingerThrough() throws {
        let (simulation, log) = try Self.simulation { $0.scrollEnabled = false }
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 1, hold: 0.1)
        #expect(try simulation.number("scroll.contentOffset.y") == 0)
        let pan = log.events.first { $0.event.name == "gesture.pan" }
        #expect(pan?.event.fields["target"] == "content")
        #expect(!log.names.contains("scroll.willBeginDragging"))
    }

    // MARK: Deceleration

    @Test(arguments: [(DecelerationRate.normal, 0.998), (.fast, 0.99)])
    func aFlingDeceleratesByTheFormulaToItsProjectedRest(rate: DecelerationRate, r: Double) throws {
        let (simulation, log) = try Self.simulation { $0.decelerationRate = rate }
        // 1,000 points per second up for 0.2 s, lifted moving: the content's velocity is +1,000.
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 0.2)
        let x0 = 200 - 200.0 / 12
        let release = try #require(Self.fields(log, "scroll.willEndDragging").first)
        #expect(abs((Self.y(release["velocity"]) ?? 0) - 1000) < 1e-6)
        let rest = x0 - 1000 / (1000 * Foundation.log(r))
        #expect(abs((Self.y(release["targetContentOffset"]) ?? 0) - rest) <= 0.5)
        for k in [1, 6, 30, 60, 120] {
            let (offset, t) = try Self.offset(simulation, frame: k, after: 0.2)
            #expect(abs(offset - Self.decelerated(x0, 1000, r, t)) <= 0.5, "frame \(k) at \(r)")
        }
        simulation.run(until: Self.seconds(6))
        #expect(abs(try simulation.number("scroll.contentOffset.y") - rest) <= 0.5)
        #expect(Self.fields(log, "scroll.didEndDecelerating").count == 1)
        #expect(!simulation.scrolling.needsFrames)
    }

    @Test(arguments: [true, false])
    func aFlingThatReachesTheEdgeBouncesOffItOrStopsThere(bounces: Bool) throws {
        let (simulation, log) = try Self.simulation {
            $0.contentOffset = Point(x: 0, y: 1300)
            $0.bounces = bounces
        }
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 0.2)
        let x0 = 1300 + 200 - 200.0 / 12
        let k = 1000 * Foundation.log(0.998)
        // Where x0 + v0 (r^(1000 t) - 1) / (1000 ln r) = 1600, and the velocity there, v0 r^(1000 t).
        let hit = Foundation.log(1 + (1600 - x0) * k / 1000) / k
        let edgeVelocity = 1000 * pow(0.998, 1000 * hit)
        var highest = 0.0
        for step in 1...90 {
            let (offset, t) = try Self.offset(simulation, frame: step, after: 0.2)
            highest = max(highest, offset)
            if t < hit { #expect(abs(offset - Self.decelerated(x0, 1000, 0.998, t)) <= 0.5) }
            if !bounces { #expect(offset <= 1600) }
        }
        // The peak of v t e^(-10 t) is v / (10 e), at t = 0.1 s past the edge.
        #expect(abs(highest - (bounces ? 1600 + edgeVelocity / (10 * M_E) : 1600)) <= 0.5)
        simulation.run(until: Self.seconds(4))
        #expect(try simulation.number("scroll.contentOffset.y") == 1600)
        #expect(Self.y(Self.fields(log, "scroll.willEndDragging").first?["targetContentOffset"]) == 1600)
    }

    /// The finger lands at 0.51 s, between the frames of 0.5 s and 0.5167 s: the content stops
    /// where the 0.5 s frame drew it (0.3 s after the release), not where the motion would be at
    /// 0.51 s, 5.5 points further on.
    @Test func aFingerOnAMovingScrollViewStopsItWhereTheLastFrameDrewItAndTapsNothing() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 0.2)
        let x0 = 200 - 200.0 / 12
        try simulation.touch(.began, 160, 300, at: 0.51)
        let stopped = try simulation.number("scroll.contentOffset.y")
        #expect(abs(stopped - Self.decelerated(x0, 1000, 0.998, 0.3)) <= 1e-6)
        try simulation.touch(.ended, 160, 300, at: 0.6)
        simulation.run(until: Self.seconds(2))
        #expect(try simulation.number("scroll.contentOffset.y") == stopped)
        #expect(!log.names.contains("tap"))
        #expect(!log.names.contains("scroll.didEndDecelerating"))
    }

    /// A motion names its scroll view through a handle, as it named it by id: removed while it
    /// decelerates, the scroll view is not moved again and nothing that takes its slot is; added
    /// again under its id, the new one takes the motion over.
    @Test(arguments: [false, true])
    func aFlungScrollViewRemovedStopsAndOneAddedUnderItsIdMovesOn(addedAgain: Bool) throws {
        let (simulation, log) = try Self.simulation()
        for (state, y, velocity) in [(GestureState.began, 0.0, 0.0), (.changed, -150, 0), (.ended, -150, -1000)] {
            try simulation.inject(
                .gesturePan(
                    PanGesture(
                        state: state, target: "scroll", translation: Point(x: 0, y: y),
                        velocity: Point(x: 0, y: velocity), location: Point(x: 160, y: 300 + y))))
        }
        simulation.run(until: Self.seconds(0.2))
        try simulation.scene.remove("scroll")
        let removedAt = log.events.count
        func scrolled() -> Int { log.events[removedAt...].filter { $0.event.name == "scroll.didScroll" }.count }
        // The scroll view's slot and its content's, freed, are taken by two other scroll views.
        for id in ["other", addedAgain ? "scroll" : "another"] {
            try simulation.addNode(id, .scrollView, Rect(x: 0, y: 100, width: 320, height: 400)) {
                $0.contentSize = Size(width: 320, height: 2000)
            }
        }
        if addedAgain {
            // At 60 Hz 0.5 s is frame 30: frames 13 to 30 move the new scroll view where the motion is.
            simulation.run(until: Self.seconds(0.5))
            #expect(abs(try simulation.number("scroll.contentOffset.y") - Self.decelerated(150, 1000, 0.998, 0.5)) <= 0.5)
            #expect(scrolled() == 18)
        } else {
            simulation.run(until: Self.seconds(5))
            #expect(try simulation.number("another.contentOffset.y") == 0)
            #expect(scrolled() == 0 && !log.names.contains("scroll.didEndDecelerating"))
        }
        #expect(try simulation.number("other.contentOffset.y") == 0)
    }

    // MARK: Paging and targets

    @Test func pagingSettlesOnThePageThePositionOrTheVelocityChooses() throws {
        func settled(distance: Double, duration: Double, hold: Double) throws -> Double {
            let (simulation, _) = try Self.simulation { $0.pagingEnabled = true }
            try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 450 - distance), duration: duration, hold: hold)
            simulation.run(until: Self.seconds(5))
            return try simulation.number("scroll.contentOffset.y")
        }
        #expect(try settled(distance: 150, duration: 0.5, hold: 0.2) == 0)  // 135 points: back
        #expect(try settled(distance: 260, duration: 0.5, hold: 0.2) == 400)  // 242.7 points: past half a page
        // 83.3 points, lifted at 1,000 points per second: 83.3 + 499.5 = 582.8 is nearer page 1.
        #expect(try settled(distance: 100, duration: 0.1, hold: 0) == 400)
        // Back the other way from page 2: a flick down settles on page 1.
        let (simulation, _) = try Self.simulation {
            $0.pagingEnabled = true
            $0.contentOffset = Point(x: 0, y: 800)
        }
        try simulation.drag(from: Point(x: 160, y: 250), to: Point(x: 160, y: 350), duration: 0.1)
        simulation.run(until: Self.seconds(5))
        #expect(try simulation.number("scroll.contentOffset.y") == 400)
    }

    @Test func aPluginMayChangeTheTargetWhileTheReleaseIsDelivered() throws {
        let (simulation, log) = try Self.simulation()
        var accepted: [Bool] = []
        simulation.bus.subscribe(.name("scroll.willEndDragging"), owner: "snap") { _ in
            accepted.append(simulation.scrolling.setTargetContentOffset(Point(x: 0, y: 300), of: "scroll"))
        }
        try simulation.drag(from: Point(x: 160, y: 450), to: Point(x: 160, y: 250), duration: 0.2)
        simulation.run(until: Self.seconds(0.3))
        #expect(!simulation.scrolling.setTargetContentOffset(Point(x: 0, y: 0), of: "scroll"))
        simulation.run(until: Self.seconds(5))
        #expect(accepted == [true])
        #expect(try simulation.number("scroll.contentOffset.y") == 300)
        #expect(Self.y(Self.fields(log, "scroll.didEndDecelerating").first?["contentOffset"]) == 300)
    }

    // MARK: The keyboard

    static func withKeyboardUp(_ mode: KeyboardDismissMode) throws -> (Simulation, EventLog) {
        let (simulation, log) = try Self.simulation {
            $0.frame = Rect(x: 0, y: 100, width: 320, height: 468)
            $0.keyboardDismissMode = mode
        }
        try simulation.inject(.focus(NodeTarget(target: "field")))
        simulation.run(until: Self.seconds(1))
        return (simulation, log)
    }

    @Test func onDragEndsEditingWhenADragBegins() throws {
        let (simulation, log) = try Self.withKeyboardUp(.onDrag)
        try simulation.drag(from: Point(x: 160, y: 300), to: Point(x: 160, y: 200), start: 1, duration: 0.2, hold: 0.1)
        #expect(simulation.scene.firstResponder == nil)
        #expect(!simulation.keyboard.isVisible)
        #expect(log.names.contains("keyboard.willHide"))
        let (none, noneLog) = try Self.withKeyboardUp(.none)
        try none.drag(from: Point(x: 160, y: 300), to: Point(x: 160, y: 200), start: 1, duration: 0.2, hold: 0.1)
        #expect(none.keyboard.isVisible)
        #expect(!noneLog.names.contains("keyboard.willHide"))
    }

    @Test func interactiveKeyboardFollowsTheFingerThenHidesWhenLetGoMovingDown() throws {
        let (simulation, log) = try Self.withKeyboardUp(.interactive)
        try simulation.touch(.began, 160, 300, at: 1)
        try simulation.slide(from: Point(x: 160, y: 300), to: Point(x: 160, y: 450), start: 1, duration: 0.5)
        #expect(try simulation.number("keyboard.presentation.frame.y") == 450)  // its top under the finger
        #expect(try simulation.number("keyboard.frame.y") == 352)  // still resting at 568 - 216
        try simulation.touch(.ended, 160, 450, at: 1.5)
        let hide = try #require(Self.fields(log, "keyboard.willHide").first)
        #expect(Self.y(hide["beginFrame"]) == 450)
        simulation.run(until: Self.seconds(2.5))
        #expect(!simulation.keyboard.isVisible)
        #expect(simulation.scene.firstResponder == nil)
        #expect(log.names.contains("keyboard.didHide"))
    }

    @Test func interactiveKeyboardReturnsWhenLetGoMovingUp() throws {
        let (simulation, log) = try Self.withKeyboardUp(.interactive)
        try simulation.touch(.began, 160, 300, at: 1)
        try simulation.slide(from: Point(x: 160, y: 300), to: Point(x: 160, y: 450), start: 1, duration: 0.5)
        try simulation.slide(from: Point(x: 160, y: 450), to: Point(x: 160, y: 420), start: 1.5, duration: 0.1)
        try simulation.touch(.ended, 160, 420, at: 1.6)
        let show = try #require(Self.fields(log, "keyboard.willShow").last)
        #expect(Self.y(show["beginFrame"]) == 420)
        #expect(Self.y(show["frame"]) == 352)
        simulation.run(until: Self.seconds(2.5))
        #expect(simulation.keyboard.isVisible)
        #expect(simulation.scene.firstResponder == "field")
        #expect(try simulation.number("keyboard.presentation.frame.y") == 352)
        #expect(!log.names.contains("keyboard.willHide"))
    }
}
