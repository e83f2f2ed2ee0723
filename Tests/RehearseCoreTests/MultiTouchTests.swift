import Foundation
import Testing

@testable import RehearseCore

/// Several fingers at once: a scroll view's pan follows their centroid (UIKit's
/// `UIPanGestureRecognizer`, whose `maximumNumberOfTouches` is unlimited by default, and a scroll
/// view that cannot zoom has no pinch recogniser), and fingers that move at the same instant are
/// one touch event (UIKit delivers them in one `touchesMoved(_:with:)`). The numbers are worked
/// out here from the fingers' positions, not read from the code under test.
@Suite struct MultiTouchTests {
    /// 60 Hz frame `k`'s time, in whole nanoseconds as the display link ticks.
    static func frame(_ k: Int) -> VirtualTime { VirtualTime(nanoseconds: Int64(k) * 1_000_000_000 / 60) }

    static func touch(_ phase: TouchPhase, _ id: Int, _ x: Double, _ y: Double, at offset: VirtualTime) -> TimedTouch {
        TimedTouch(offset: offset, phase: phase, touch: Touch(id: id, point: Point(x: x, y: y)))
    }

    static func offsets(_ log: EventLog) -> [Double] {
        ScrollViewTests.fields(log, "scroll.didScroll").compactMap { ScrollViewTests.y($0["contentOffset"]) }
    }

    // MARK: Two fingers pan a scroll view

    /// Two fingers 80 points apart moving up 10 points a frame together for 20 frames, held 0.1 s:
    /// their centroid travels 200 points. The pan begins once it has moved more than 10 (frame 2,
    /// 20 points) and the content follows it from there: 200 - 20 = 180, at rest (no velocity).
    @Test func twoFingersMovingTogetherScrollByTheirCentroid() throws {
        let (simulation, log) = try ScrollViewTests.simulation()
        var touches = [Self.touch(.began, 1, 120, 450, at: .zero), Self.touch(.began, 2, 200, 450, at: .zero)]
        for k in 1...20 {
            touches += [
                Self.touch(.moved, 1, 120, 450 - 10 * Double(k), at: Self.frame(k)),
                Self.touch(.moved, 2, 200, 450 - 10 * Double(k), at: Self.frame(k)),
            ]
        }
        let lift = Self.frame(20) + VirtualTime(nanoseconds: 100_000_000)
        touches += [Self.touch(.ended, 1, 120, 250, at: lift), Self.touch(.ended, 2, 200, 250, at: lift)]
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(2))
        #expect(try simulation.number("scroll.contentOffset.y") == 180)
        let pans = GestureTests.gestures(log, "gesture.pan")
        #expect(pans.first?["state"] == "began")
        #expect(GestureTests.field(pans.first?["translation"], is: ["x": 0, "y": -20]))
        #expect(GestureTests.field(pans.first?["location"], is: ["x": 160, "y": 430]))  // the centroid
        #expect(pans.last?["state"] == "ended")
        #expect(ScrollViewTests.y(ScrollViewTests.fields(log, "scroll.willEndDragging").first?["velocity"]) == 0)
        #expect(!log.names.contains("gesture.pinch"))
        #expect(!log.names.contains("tap"))
    }

    /// Finger 1 drags up 10 points a frame; finger 2 lands 150 points above it halfway (frame
    /// 10.5), both move on together, finger 1 lifts at 0.34 s and finger 2 goes on alone to frame
    /// 30, lifting as it moves. The centroid jumps where a finger lands or lifts (25 points each
    /// time), but the translation is re-based there, as UIKit's is: the content moves 10 points a
    /// frame throughout (frames 3 to 30: 28 moves, to 300 - 20 = 280), never on the landing or the
    /// lift, and it is flung with the centroid's speed, 10 points a frame = 600 points per second.
    @Test func aFingerLandingOrLiftingMidPanMovesNothingAndTheFlingFollowsTheCentroid() throws {
        let (simulation, log) = try ScrollViewTests.simulation()
        var touches = [Self.touch(.began, 1, 120, 450, at: .zero)]
        for k in 1...30 {
            if k == 11 { touches.append(Self.touch(.began, 2, 200, 300, at: VirtualTime(nanoseconds: 175_000_000))) }
            if k <= 20 { touches.append(Self.touch(.moved, 1, 120, 450 - 10 * Double(k), at: Self.frame(k))) }
            if k > 10 { touches.append(Self.touch(.moved, 2, 200, 300 - 10 * Double(k - 10), at: Self.frame(k))) }
            if k == 20 { touches.append(Self.touch(.ended, 1, 120, 250, at: VirtualTime(nanoseconds: 340_000_000))) }
        }
        touches.append(Self.touch(.ended, 2, 200, 100, at: Self.frame(30)))
        try simulation.inject(touches)
        simulation.run(until: VirtualTime(nanoseconds: 180_000_000))  // finger 2 has landed
        #expect(try simulation.number("scroll.contentOffset.y") == 80)
        simulation.run(until: Self.frame(30))
        #expect(try simulation.number("scroll.contentOffset.y") == 280)
        let offsets = Self.offsets(log)
        #expect(offsets.count == 28)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 == 10 })
        let release = try #require(ScrollViewTests.fields(log, "scroll.willEndDragging").first)
        #expect(abs((ScrollViewTests.y(release["velocity"]) ?? 0) - 600) < 1e-6)
        // At rest: x0 - v0 / (1000 ln r) = 280 + 600 / 2.002 = 579.70.
        #expect(
            abs((ScrollViewTests.y(release["targetContentOffset"]) ?? 0) - (280 - 600 / (1000 * Foundation.log(0.998)))) <= 0.5)
        #expect(GestureTests.states(log, "gesture.pan") == ["began"] + Array(repeating: "changed", count: 28) + ["ended"])
    }

    /// A finger that comes down outside the scroll view is another view's: the pan goes on with
    /// the finger in it alone. Finger 1 drags up 10 points a frame for 20 frames (200 - 20 = 180,
    /// as alone); finger 2 lands on the text field above the scroll view between frames 5 and 6
    /// and moves right 5 points a frame (joining the pan, it would have halved the centroid's travel).
    @Test func aFingerOutsideTheScrollViewDoesNotJoinItsPan() throws {
        let (simulation, log) = try ScrollViewTests.simulation()
        var touches = [Self.touch(.began, 1, 160, 450, at: .zero)]
        for k in 1...20 {
            if k == 6 { touches.append(Self.touch(.began, 2, 100, 30, at: VirtualTime(nanoseconds: 91_000_000))) }
            touches.append(Self.touch(.moved, 1, 160, 450 - 10 * Double(k), at: Self.frame(k)))
            if k >= 6 { touches.append(Self.touch(.moved, 2, 100 + 5 * Double(k - 5), 30, at: Self.frame(k))) }
        }
        let lift = Self.frame(20) + VirtualTime(nanoseconds: 100_000_000)
        touches += [Self.touch(.ended, 1, 160, 250, at: lift), Self.touch(.ended, 2, 175, 30, at: lift)]
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(2))
        #expect(try simulation.number("scroll.contentOffset.y") == 180)
        #expect(GestureTests.field(GestureTests.gestures(log, "gesture.pan").last?["location"], is: ["x": 160, "y": 250]))
    }

    // MARK: Fingers in different scroll views

    /// Two lists side by side and a button above them.
    static func twoLists() throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("button", .button, Rect(x: 20, y: 20, width: 100, height: 40))
        for (id, x) in [("left", 0.0), ("right", 160.0)] {
            try simulation.addNode(id, .scrollView, Rect(x: x, y: 100, width: 160, height: 400)) {
                $0.contentSize = Size(width: 160, height: 2000)
            }
            try simulation.addNode("\(id)Content", .view, Rect(x: 0, y: 0, width: 160, height: 2000), parent: id)
        }
        return (simulation, simulation.record())
    }

    /// A UIKit recogniser sees the touches in its own view: a finger that lands in another scroll
    /// view while one drags the first is that view's pan, not a second finger of the first. Finger 1
    /// drags the left list up 10 points a frame for 20 frames; finger 2 lands in the right list at
    /// frame 5 and drags it up 10 points a frame for 10 frames, both held 0.1 s before lifting (no
    /// fling). Each pan begins once its finger has moved more than 10 points (20 points, its
    /// second frame) and follows it from there: left 200 - 20 = 180, right 100 - 20 = 80. (Before,
    /// one touch sequence took every finger and the right list never moved.)
    @Test func fingersInTwoScrollViewsDragEachItsOwn() throws {
        let (simulation, log) = try Self.twoLists()
        var touches = [Self.touch(.began, 1, 80, 450, at: .zero)]
        for k in 1...20 {
            if k == 5 { touches.append(Self.touch(.began, 2, 240, 450, at: Self.frame(5))) }
            touches.append(Self.touch(.moved, 1, 80, 450 - 10 * Double(k), at: Self.frame(k)))
            if k > 5, k <= 15 { touches.append(Self.touch(.moved, 2, 240, 450 - 10 * Double(k - 5), at: Self.frame(k))) }
        }
        let lift = Self.frame(20) + VirtualTime(nanoseconds: 100_000_000)
        touches += [Self.touch(.ended, 1, 80, 250, at: lift), Self.touch(.ended, 2, 240, 350, at: lift)]
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(2))
        #expect(try simulation.number("left.contentOffset.y") == 180)
        #expect(try simulation.number("right.contentOffset.y") == 80)
        let pans = GestureTests.gestures(log, "gesture.pan")
        #expect(pans.filter { $0["state"] == "began" }.map { $0["target"] } == ["left", "right"])
        #expect(pans.filter { $0["state"] == "ended" }.count == 2)
        #expect(!log.names.contains("gesture.pinch"))
    }

    /// A finger that lands in a scroll view while another rests on a button is the scroll view's
    /// pan and leaves the button's tap alone: the first finger lifts where it came down and taps.
    @Test func aFingerDraggingAListLeavesATapOnAButtonAlone() throws {
        let (simulation, log) = try Self.twoLists()
        var touches = [Self.touch(.began, 1, 70, 40, at: .zero), Self.touch(.began, 2, 80, 450, at: Self.frame(1))]
        for k in 2...6 { touches.append(Self.touch(.moved, 2, 80, 450 - 10 * Double(k - 1), at: Self.frame(k))) }
        touches += [Self.touch(.ended, 1, 70, 40, at: Self.frame(6)), Self.touch(.ended, 2, 80, 400, at: Self.frame(8))]
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(2))
        #expect(log.names.filter { $0 == "tap" }.count == 1)
        #expect(try simulation.number("left.contentOffset.y") > 0)
    }

    /// A scroll view enabled after a finger landed in it is still that finger's sequence's: a
    /// second finger landing in it joins that sequence rather than beginning a second pan of the
    /// same view (the attack on this change found two sequences dragging one view, its offset
    /// jumping between their translations and `scroll.willBeginDragging` published twice).
    @Test func aScrollViewEnabledUnderAFingerIsNeverPannedByTwoSequences() throws {
        let simulation = Simulation()
        try simulation.addNode("list", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568)) {
            $0.contentSize = Size(width: 320, height: 3000)
            $0.scrollEnabled = false
        }
        let log = simulation.record()
        try simulation.inject([Self.touch(.began, 0, 80, 500, at: .zero)])
        simulation.run(until: Self.frame(1))
        try simulation.setValue(.bool(true), at: "list.scrollEnabled")
        // Finger 1 lands and moves first; finger 0 moves slowly (no swipe), then fast, after it.
        let seconds = ScrollViewTests.seconds
        try simulation.inject([
            Self.touch(.began, 1, 240, 500, at: .zero), Self.touch(.moved, 1, 240, 470, at: seconds(0.05)),
            Self.touch(.moved, 0, 80, 490, at: seconds(0.1)), Self.touch(.moved, 1, 240, 440, at: seconds(0.1)),
            Self.touch(.moved, 0, 80, 470, at: seconds(0.3)), Self.touch(.moved, 1, 240, 400, at: seconds(0.3)),
            Self.touch(.moved, 0, 80, 300, at: seconds(0.35)), Self.touch(.ended, 1, 240, 380, at: seconds(0.4)),
            Self.touch(.moved, 0, 80, 200, at: seconds(0.45)), Self.touch(.ended, 0, 80, 100, at: seconds(0.5)),
        ])
        simulation.run(until: ScrollViewTests.seconds(3))
        #expect(log.names.filter { $0 == "scroll.willBeginDragging" }.count <= 1)
        let began = GestureTests.gestures(log, "gesture.pan").filter { $0["state"] == "began" }
        #expect(began.count <= 1, "\(began)")
    }

    // MARK: Moves at one instant are one touch event

    /// Two fingers 80 points apart on a label moving right together, 5 points a frame: their
    /// distance stays 80, so no pinch begins (moved one at a time it would read 75, then 80).
    @Test(arguments: [false, true])
    func twoFingersMovingAtTheSameInstantMakeNoPinch(oneAtATime: Bool) throws {
        let (simulation, log) = try GestureTests.simulation()
        var touches = [Self.touch(.began, 1, 100, 100, at: .zero), Self.touch(.began, 2, 180, 100, at: .zero)]
        for k in 1...10 {
            touches += [
                Self.touch(.moved, 1, 100 + 5 * Double(k), 100, at: Self.frame(k)),
                Self.touch(.moved, 2, 180 + 5 * Double(k), 100, at: Self.frame(k)),
            ]
        }
        touches += [Self.touch(.ended, 1, 150, 100, at: Self.frame(10)), Self.touch(.ended, 2, 230, 100, at: Self.frame(10))]
        if oneAtATime {
            // As `InjectAt` schedules them over D-Bus, one event each.
            for timed in touches { try simulation.inject(timed.event, at: timed.offset) }
        } else {
            try simulation.inject(touches)
        }
        simulation.run(until: ScrollViewTests.seconds(1))
        #expect(log.names.filter { $0 == "touch.moved" }.count == 20)
        #expect(!log.names.contains("gesture.pinch"))
        #expect(!log.names.contains("gesture.pan"))
        #expect(!log.names.contains("tap"))
    }

    /// A pinch's two fingers move on every frame: one `gesture.pinch` a frame (began at frame 1,
    /// changed on frames 2 to 30, ended), each with both fingers moved: frame k's scale is
    /// 1 + 0.5 k / 30, so the first reads 1.0167 (moved one at a time it read 1.0083 first).
    @Test func aPinchChangesOnceAFrameWithBothFingersMoved() throws {
        let (simulation, log) = try GestureTests.simulation()
        let touches = TouchStream.pinch(
            ids: (1, 2), center: Point(x: 160, y: 100), scale: 1.5,
            duration: VirtualTime(nanoseconds: 500_000_000), rate: 60)
        try simulation.inject(touches)
        simulation.run(until: ScrollViewTests.seconds(1))
        let pinches = GestureTests.gestures(log, "gesture.pinch")
        #expect(pinches.count == 31)
        #expect(GestureTests.states(log, "gesture.pinch") == ["began"] + Array(repeating: "changed", count: 29) + ["ended"])
        let scales = pinches.compactMap { $0["scale"]?.number }
        for (k, scale) in scales.prefix(30).enumerated() {
            #expect(abs(scale - (1 + 0.5 * Double(k + 1) / 30)) < 1e-9, "frame \(k + 1)")
        }
    }

    /// Finger ids are 0 to 999 wherever a touch comes from, as a `touches:` step's and a viewer
    /// page's are (the attack on this stop's change injected `touch.began` with id 2^40 over
    /// D-Bus, and it was taken).
    @Test func aFingerIdPastTheLimitIsRefused() throws {
        let (simulation, log) = try GestureTests.simulation()
        #expect(throws: InjectionError.invalidTouch("touch ids are 0 to 999, found 1000")) {
            try simulation.inject(.touchBegan(Touch(id: 1000, point: Point(x: 110, y: 100))))
        }
        #expect(throws: InjectionError.invalidTouch("touch ids are 0 to 999, found -1")) {
            try simulation.inject(.touchBegan(Touch(id: -1, point: Point(x: 110, y: 100))))
        }
        try simulation.inject(.touchBegan(Touch(id: 999, point: Point(x: 110, y: 100))))
        #expect(simulation.touchesDown.keys.sorted() == [999])
        #expect(log.names == ["touch.began"])
    }

    /// `injectMoves` (a viewer page's pinch) moves fingers now as one touch event: 100 points
    /// apart, each moved 10 outward, the pinch begins at 1.2. A finger twice, or one not down,
    /// is refused and moves none.
    @Test func movesInjectedAtOnceAreOneTouchEventAndARefusedOneMovesNone() throws {
        let (simulation, log) = try GestureTests.simulation()
        try simulation.inject(.touchBegan(Touch(id: 1, point: Point(x: 110, y: 100))))
        try simulation.inject(.touchBegan(Touch(id: 2, point: Point(x: 210, y: 100))))
        try simulation.injectMoves([Touch(id: 1, point: Point(x: 100, y: 100)), Touch(id: 2, point: Point(x: 220, y: 100))])
        #expect(GestureTests.states(log, "gesture.pinch") == ["began"])
        #expect(GestureTests.field(GestureTests.gestures(log, "gesture.pinch").first?["scale"], is: 1.2))
        #expect(throws: InjectionError.invalidTouch("touch 2 moves twice at once")) {
            try simulation.injectMoves([Touch(id: 2, point: Point(x: 230, y: 100)), Touch(id: 2, point: Point(x: 240, y: 100))])
        }
        #expect(throws: InjectionError.invalidTouch("touch 3 is not down; a touch begins with touch.began")) {
            try simulation.injectMoves([Touch(id: 1, point: Point(x: 90, y: 100)), Touch(id: 3, point: Point(x: 240, y: 100))])
        }
        #expect(simulation.touchesDown == [1: Point(x: 100, y: 100), 2: Point(x: 220, y: 100)])
        #expect(log.names.filter { $0 == "touch.moved" }.count == 2)
    }
}
