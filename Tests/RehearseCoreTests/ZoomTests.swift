import Foundation
import Testing

@testable import RehearseCore

/// Zooming, as UIScrollView zooms under a pinch: the numbers are worked out here from the
/// fingers' positions and UIKit's rules (the point under the fingers' centre stays under it, the
/// content size is the zoom view's size times the scale), not read from the code under test.
@Suite struct ZoomTests {
    /// A scroll view 400 points high, 100 points down the screen, whose content is its child
    /// `content` (320 × 400), zooming from 1 to 4.
    static func simulation(_ configure: (inout Node) -> Void = { _ in }) throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("photo", .scrollView, Rect(x: 0, y: 100, width: 320, height: 400)) {
            $0.contentSize = Size(width: 320, height: 400)
            $0.maximumZoomScale = 4
            $0.viewForZooming = "content"
            configure(&$0)
        }
        try simulation.addNode("content", .imageView, Rect(x: 0, y: 0, width: 320, height: 400), parent: "photo")
        return (simulation, simulation.record())
    }

    /// Two fingers 100 points apart across (160, 300) on the screen, each moving `step` points
    /// outwards a frame for 10 frames.
    static func parting(by step: Double) -> [TimedTouch] {
        var touches = [
            MultiTouchTests.touch(.began, 1, 110, 300, at: .zero), MultiTouchTests.touch(.began, 2, 210, 300, at: .zero),
        ]
        for k in 1...10 {
            let half = 50 + step * Double(k)
            touches += [
                MultiTouchTests.touch(.moved, 1, 160 - half, 300, at: MultiTouchTests.frame(k)),
                MultiTouchTests.touch(.moved, 2, 160 + half, 300, at: MultiTouchTests.frame(k)),
            ]
        }
        return touches
    }

    /// Two fingers 100 points apart across (160, 300) on the screen, (160, 200) in the scroll
    /// view, part to 200 in 10 frames (scale 2), then move up 20 points together and lift. The
    /// content's point (160, 200) stays under the centre: at scale 2 the offset is
    /// (2 × 160 - 160, 2 × 200 - 200) = (160, 200), and with the centre 20 points higher,
    /// (160, 400 - 180) = (160, 220); the content is 640 × 800, so that offset is within it.
    @Test func aPinchZoomsAboutTheFingersCentreAndMovingThemPans() throws {
        let (simulation, log) = try Self.simulation()
        let touches =
            Self.parting(by: 5) + [
                MultiTouchTests.touch(.moved, 1, 60, 280, at: MultiTouchTests.frame(11)),
                MultiTouchTests.touch(.moved, 2, 260, 280, at: MultiTouchTests.frame(11)),
                MultiTouchTests.touch(.ended, 1, 60, 280, at: MultiTouchTests.frame(12)),
                MultiTouchTests.touch(.ended, 2, 260, 280, at: MultiTouchTests.frame(12)),
            ]
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(1))
        #expect(try simulation.number("photo.zoomScale") == 2)
        #expect(try simulation.number("photo.contentOffset.x") == 160)
        #expect(try simulation.number("photo.contentOffset.y") == 220)
        #expect(try simulation.number("photo.contentSize.height") == 800)
        #expect(try simulation.number("content.frame.width") == 640)
        #expect(log.names.filter { $0 == "scroll.willBeginZooming" }.count == 1)
        #expect(ScrollViewTests.fields(log, "scroll.didEndZooming").map { $0["zoomScale"]?.number } == [2])
        #expect(!log.names.contains("scroll.willBeginDragging"))
    }

    /// The same fingers on a scroll view whose limits are equal (UIKit's default, 1 and 1): no
    /// pinch recogniser, so the two fingers are the pan's, their centroid moves 20 points, and
    /// the pan begins (20 > 10) with nothing left to move: no zoom, no `gesture.pinch`.
    @Test func aScrollViewWhoseLimitsAreEqualHasNoPinch() throws {
        let (simulation, log) = try Self.simulation {
            $0.maximumZoomScale = 1
            $0.contentSize = Size(width: 320, height: 2000)
        }
        try simulation.inject([
            MultiTouchTests.touch(.began, 1, 110, 300, at: .zero), MultiTouchTests.touch(.began, 2, 210, 300, at: .zero),
            MultiTouchTests.touch(.moved, 1, 60, 300, at: MultiTouchTests.frame(1)),
            MultiTouchTests.touch(.moved, 2, 260, 300, at: MultiTouchTests.frame(1)),
            MultiTouchTests.touch(.moved, 1, 60, 270, at: MultiTouchTests.frame(2)),
            MultiTouchTests.touch(.moved, 2, 260, 270, at: MultiTouchTests.frame(2)),
            MultiTouchTests.touch(.moved, 1, 60, 240, at: MultiTouchTests.frame(3)),
            MultiTouchTests.touch(.moved, 2, 260, 240, at: MultiTouchTests.frame(3)),
        ])
        simulation.run(until: MultiTouchTests.frame(3))
        #expect(try simulation.number("photo.zoomScale") == 1)
        #expect(try simulation.number("photo.contentOffset.y") == 30)  // 60 travelled, 30 when the pan began
        #expect(!log.names.contains("gesture.pinch"))
        #expect(!log.names.contains("scroll.willBeginZooming"))
    }

    /// Past a limit the scale follows the rubber band with the limit as its dimension:
    /// 2 + (1 - 1 / (1 × 0.55 / 2 + 1)) × 2 = 2.431373 for 3 over a maximum of 2, and
    /// 1 - (1 - 1 / (0.5 × 0.55 + 1)) = 0.784314 for 0.5 under a minimum of 1; without bounces
    /// the limit itself; within the limits the scale itself.
    @Test func theShownScaleRubberBandsPastEitherLimit() {
        #expect(abs(Zooming.shownScale(3, minimum: 1, maximum: 2, bounces: true) - 2.431373) < 1e-6)
        #expect(abs(Zooming.shownScale(0.5, minimum: 1, maximum: 2, bounces: true) - 0.784314) < 1e-6)
        #expect(Zooming.shownScale(3, minimum: 1, maximum: 2, bounces: false) == 2)
        #expect(Zooming.shownScale(0.5, minimum: 1, maximum: 2, bounces: false) == 1)
        #expect(Zooming.shownScale(1.5, minimum: 1, maximum: 2, bounces: true) == 1.5)
        // However far past (an injected pinch's scale is any finite number), the shown scale stays
        // at most twice the maximum and above 1 - (1 - 1 / (1 × 0.55 + 1)) = 0.645 of the minimum.
        #expect(Zooming.shownScale(-1e308, minimum: 1, maximum: 2, bounces: true) > 0.645)
        #expect(Zooming.shownScale(1e308, minimum: 1, maximum: 2, bounces: true) <= 4)
    }

    /// Released past the maximum, the scale and offset spring back together on the scroll
    /// bounce's spring: the part left after t seconds is (1 + 10 t) e^(-10 t).
    @Test func releasedPastTheMaximumItSpringsBack() throws {
        let (simulation, log) = try Self.simulation { $0.maximumZoomScale = 2 }
        // Fingers across (160, 300) part from 100 to 300 points: scale 3, shown 2.431373.
        let touches =
            Self.parting(by: 10) + [
                MultiTouchTests.touch(.ended, 1, 10, 300, at: MultiTouchTests.frame(10)),
                MultiTouchTests.touch(.ended, 2, 310, 300, at: MultiTouchTests.frame(10)),
            ]
        try simulation.inject(touches)
        simulation.run(until: MultiTouchTests.frame(10))
        let shown = 2 + (1 - 1 / (1 * 0.55 / 2 + 1)) * 2
        #expect(abs(try simulation.number("photo.zoomScale") - shown) < 1e-9)
        #expect(!log.names.contains("scroll.didEndZooming"))
        simulation.run(until: MultiTouchTests.frame(16))  // 0.1 s after the lift
        let left = 2 * exp(-1.0)
        #expect(abs(try simulation.number("photo.zoomScale") - (2 + (shown - 2) * left)) < 1e-9)
        // The offset goes from the anchor's (160 × s - 160, 200 × s - 200) to (160, 200).
        #expect(abs(try simulation.number("photo.contentOffset.y") - (200 + (200 * shown - 200 - 200) * left)) < 1e-9)
        #expect(simulation.settle(within: ScrollViewTests.seconds(5)).isEmpty)
        #expect(try simulation.number("photo.zoomScale") == 2)
        #expect(try simulation.number("photo.contentOffset.y") == 200)
        #expect(ScrollViewTests.fields(log, "scroll.didEndZooming").map { $0["zoomScale"]?.number } == [2])
    }

    /// A finger that comes down while the scale springs back stops it where the last frame drew
    /// it, as one stops a moving scroll view, and taps nothing; zooming has not ended.
    @Test func aFingerStopsTheSpringBackWhereTheLastFrameDrewIt() throws {
        let (simulation, log) = try Self.simulation { $0.maximumZoomScale = 2 }
        let touches =
            Self.parting(by: 10) + [
                MultiTouchTests.touch(.ended, 1, 10, 300, at: MultiTouchTests.frame(10)),
                MultiTouchTests.touch(.ended, 2, 310, 300, at: MultiTouchTests.frame(10)),
            ]
        try simulation.inject(touches)
        simulation.run(until: MultiTouchTests.frame(16))  // 0.1 s after the lift
        let drawn = try simulation.number("photo.zoomScale")
        #expect(drawn > 2)
        try simulation.inject([
            MultiTouchTests.touch(.began, 3, 160, 300, at: .zero),
            MultiTouchTests.touch(.ended, 3, 160, 300, at: ScrollViewTests.seconds(0.05)),
        ])
        simulation.run(until: ScrollViewTests.seconds(2))
        #expect(try simulation.number("photo.zoomScale") == drawn)
        #expect(!log.names.contains("scroll.didEndZooming"))
        #expect(!log.names.contains("tap"))
    }

    /// What a file gives is checked: each scale within ScenarioLimits.zoomScale (0, 1e308 and NaN
    /// refused), the minimum at most the maximum, a zooming scroll view's scale between them,
    /// `viewForZooming` only on a scroll view; and, once the scene is built, only a child.
    @Test func theZoomPropertiesAreChecked() throws {
        func read(_ extra: Fields) -> String? {
            var fields: Fields = ["id": "photo", "kind": "scrollView", "frame": [0, 0, 320, 400]]
            for (key, value) in extra { fields[key] = value }
            do {
                _ = try Node.read(fields: fields)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(read(["zoomScale": 0])?.hasSuffix("must be from 0.001 to 1000 (ScenarioLimits.zoomScale), found 0") == true)
        #expect(read(["maximumZoomScale": 1e308])?.contains("ScenarioLimits.zoomScale") == true)
        #expect(read(["minimumZoomScale": .double(.nan)])?.contains("finite") == true)
        #expect(read(["minimumZoomScale": 3, "maximumZoomScale": 2])?.contains("must be at most maximumZoomScale (2)") == true)
        #expect(
            read(["maximumZoomScale": 2, "zoomScale": 3, "viewForZooming": "content"])?.contains("to maximumZoomScale (2)")
                == true)
        #expect(read(["kind": "view", "viewForZooming": "content"])?.contains("must be on a scroll view") == true)
        #expect(read(["maximumZoomScale": 2, "zoomScale": 1.5, "viewForZooming": "content", "bouncesZoom": false]) == nil)

        let (simulation, _) = try Self.simulation { $0.viewForZooming = "other" }
        #expect(throws: ZoomViewError(scrollView: "photo", view: "other", children: ["content"])) {
            try Zooming.checkZoomView(of: "photo", in: simulation.scene)
        }
        // Through paths: refused, changing nothing.
        #expect(throws: PathError.self) { try simulation.setValue(5, at: "photo.minimumZoomScale") }
        #expect(throws: PathError.self) { try simulation.setValue("root", at: "photo.viewForZooming") }
        #expect(try simulation.number("photo.minimumZoomScale") == 1)
        try simulation.setValue("content", at: "photo.viewForZooming")
        #expect(try simulation.value(at: "photo.viewForZooming") == "content")
    }

    /// `zoomScale` set through a path (a `set` or `animate` step, a plugin's `set`) is checked as a
    /// file's is: a scale of 0 would make the next pinch divide the zoom view's size by zero (its
    /// content size and offset NaN), so 0, -0, a subnormal, 1e308 and a scale outside the zooming
    /// scroll view's limits are refused, changing nothing, and the next pinch zooms from 1.
    @Test func aZoomScaleSetThroughAPathIsChecked() throws {
        let (simulation, log) = try Self.simulation()
        for scale in [0, -0.0, 5e-324, -1, 1e308, 0.5, 5] {
            #expect(throws: PathError.self) { try simulation.setValue(.double(scale), at: "photo.zoomScale") }
            #expect(throws: PathError.self) { try simulation.checkSetting(.double(scale), at: "photo.zoomScale") }
        }
        #expect(try simulation.number("photo.zoomScale") == 1)
        try simulation.inject(Self.parting(by: 5))
        simulation.run(until: MultiTouchTests.frame(10))
        #expect(try simulation.number("photo.zoomScale") == 2)
        #expect(try simulation.number("photo.contentOffset.y") == 200)
        #expect(ScrollViewTests.fields(log, "scroll.willBeginZooming").map { $0["zoomScale"]?.number } == [1])
        try simulation.setValue(3, at: "photo.zoomScale")
        #expect(try simulation.number("photo.zoomScale") == 3)
    }

    /// Mid-pinch, past the maximum by the rubber band, `bouncesZoom` and `viewForZooming` may be set
    /// (neither changes the scale nor a limit, so the scale is not held to the limits), and the
    /// next frame follows: without bounces the scale stops at the maximum. A limit set then is
    /// still checked against the scale shown (2.431373 is past 2.2, within 3).
    @Test func bouncesZoomAndTheZoomViewMayBeSetWhileTheScaleIsPastALimit() throws {
        let (simulation, _) = try Self.simulation { $0.maximumZoomScale = 2 }
        let touches = Self.parting(by: 10)
        try simulation.inject(Array(touches.prefix(touches.count - 2)))
        simulation.run(until: MultiTouchTests.frame(9))
        #expect(try simulation.number("photo.zoomScale") > 2)
        try simulation.setValue("content", at: "photo.viewForZooming")
        try simulation.checkSetting(false, at: "photo.bouncesZoom")
        try simulation.setValue(false, at: "photo.bouncesZoom")
        #expect(throws: PathError.self) { try simulation.setValue(2.2, at: "photo.maximumZoomScale") }
        #expect(throws: PathError.self) { try simulation.setValue(0.5, at: "photo.zoomScale") }
        for touch in touches.suffix(2) { try simulation.inject(touch.event, at: touch.offset) }  // at frame 10
        simulation.run(until: MultiTouchTests.frame(10))
        #expect(try simulation.number("photo.zoomScale") == 2)
        try simulation.setValue(3, at: "photo.maximumZoomScale")
    }

    /// A pinch from outside (D-Bus `Inject`, `emit`) has the pinch step's limits: a scale more
    /// than 0 and at most ``ScenarioLimits/pinchScale``, and a velocity at most
    /// ``ScenarioLimits/pinchVelocity`` either way; refused, it changes nothing.
    @Test func anInjectedPinchPastThePinchLimitsIsRefused() throws {
        let (simulation, log) = try Self.simulation()
        func pinch(_ state: GestureState, scale: Double, velocity: Double = 0) throws {
            try simulation.inject(
                .gesturePinch(
                    PinchGesture(state: state, target: "photo", scale: scale, velocity: velocity, center: Point(x: 160, y: 300))))
        }
        let scaleLimit = ScenarioLimits.pinchScale
        let velocityLimit = ScenarioLimits.pinchVelocity
        for scale in [0, -0.0, -1, .nan, scaleLimit.nextUp, 1e308, .infinity] {
            #expect(throws: InjectionError.self) { try pinch(.began, scale: scale) }
        }
        for velocity in [velocityLimit.nextUp, -velocityLimit.nextUp, .nan, -1e308] {
            #expect(throws: InjectionError.self) { try pinch(.began, scale: 1, velocity: velocity) }
        }
        #expect(!log.names.contains("gesture.pinch"))
        try pinch(.began, scale: 1, velocity: -velocityLimit)
        try pinch(.changed, scale: scaleLimit, velocity: velocityLimit)
        #expect(try simulation.number("photo.zoomScale") > 4)  // rubber-banded past the maximum
    }
}
