import Testing

@testable import RehearseCore

/// Touches on the bus and the gestures recognised from them (``TouchSequence``'s rules).
@Suite struct GestureTests {
    /// A 320 × 568 screen with a label, a text field, and a scroll view holding a long content view.
    static func simulation() throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("label", .label, Rect(x: 0, y: 0, width: 320, height: 200))
        try simulation.addNode("field", .textField, Rect(x: 20, y: 210, width: 280, height: 30))
        try simulation.addNode("scroll", .scrollView, Rect(x: 0, y: 268, width: 320, height: 300)) {
            $0.contentSize = Size(width: 320, height: 1200)
        }
        try simulation.addNode("content", .view, Rect(x: 0, y: 0, width: 320, height: 1200), parent: "scroll")
        return (simulation, simulation.record())
    }

    static func gestures(_ log: EventLog, _ name: String) -> [Fields] {
        log.events.filter { $0.event.name == name }.map(\.event.fields)
    }

    static func states(_ log: EventLog, _ name: String) -> [String] {
        gestures(log, name).compactMap { fields in
            if case .string(let state)? = fields["state"] { state } else { nil }
        }
    }

    /// Whether `actual` is `expected` (numbers within 1e-9, mappings as subsets).
    static func field(_ actual: FieldValue?, is expected: FieldValue) -> Bool {
        expected.matches(actual)
    }

    static func component(_ value: FieldValue?, _ key: String) -> Double? {
        if case .dictionary(let fields)? = value { fields[key]?.number } else { nil }
    }

    // MARK: Taps

    @Test func aFingerThatLiftsWithinTheSlopIsTheTapAnInjectedTapWouldBe() throws {
        let (touched, log) = try Self.simulation()
        try touched.touch(.began, 100, 220, at: 0)
        try touched.touch(.moved, 106, 226, at: 0.05)
        try touched.touch(.ended, 107, 227, at: 0.1)
        let (tapped, tapLog) = try Self.simulation()
        tapped.run(until: VirtualTime.seconds(0.1) ?? .zero)
        try tapped.inject(.tap(Tap(point: Point(x: 107, y: 227))))
        let tap = try #require(log.events.first { $0.event.name == "tap" })
        #expect(tap.event == tapLog.events.first { $0.event.name == "tap" }?.event)
        #expect(tap.event.fields["target"] == "field")
        #expect(touched.scene.firstResponder == "field")
        #expect(
            log.names(excluding: ["tick", "keyboard.willShow", "focus.changed"]) == [
                "touch.began", "touch.moved", "touch.ended", "tap",
            ])
    }

    @Test func touchesCarryTheNodeTheFingerCameDownOn() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 160, 100, at: 0)
        try simulation.touch(.moved, 160, 400, at: 0.3)
        try simulation.touch(.ended, 160, 500, at: 0.4)
        let targets = log.events.filter { $0.event.name.hasPrefix("touch.") }.map { $0.event.fields["target"] }
        #expect(targets == ["label", "label", "label"])
    }

    @Test func aFingerThatMovesPastTheSlopDoesNotTap() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 100, 100, at: 0)
        try simulation.touch(.ended, 100, 111, at: 0.1)
        #expect(!log.names.contains("tap"))
    }

    // MARK: Long press

    @Test func aLongPressBeginsAfterHalfASecondHeldAndEndsWhenTheFingerLifts() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 100, 100, at: 0)
        try simulation.touch(.moved, 108, 100, at: 0.3)  // within UIKit's 10 points
        simulation.run(until: VirtualTime.seconds(0.6) ?? .zero)
        let began = try #require(log.events.first { $0.event.name == "gesture.longPress" })
        #expect(began.time == VirtualTime.seconds(0.5))  // UILongPressGestureRecognizer's 0.5 s
        try simulation.touch(.moved, 150, 100, at: 0.7)
        try simulation.touch(.ended, 150, 100, at: 0.8)
        // The lift where the finger already was is no change.
        #expect(Self.states(log, "gesture.longPress") == ["began", "changed", "ended"])
        #expect(!log.names.contains("tap"))
        #expect(!log.names.contains("gesture.pan"))
    }

    @Test func aPressTooShortIsATapAndOneThatMovesTooFarIsNeither() throws {
        let (short, shortLog) = try Self.simulation()
        try short.touch(.began, 100, 100, at: 0)
        try short.touch(.ended, 100, 100, at: 0.49)
        short.run(until: VirtualTime.seconds(1) ?? .zero)
        #expect(shortLog.names.contains("tap"))
        #expect(!shortLog.names.contains("gesture.longPress"))
        let (moved, movedLog) = try Self.simulation()
        try moved.touch(.began, 100, 100, at: 0)
        try moved.touch(.moved, 100, 111, at: 0.3)  // past the 10 points allowed
        moved.run(until: VirtualTime.seconds(1) ?? .zero)
        #expect(!movedLog.names.contains("gesture.longPress"))
    }

    @Test func aCancelledTouchCancelsTheLongPress() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 100, 100, at: 0)
        try simulation.touch(.cancelled, 100, 100, at: 0.7)
        simulation.run(until: VirtualTime.seconds(1) ?? .zero)
        #expect(Self.states(log, "gesture.longPress") == ["began", "cancelled"])
        #expect(!log.names.contains("tap"))
    }

    // MARK: Pan and swipe

    @Test func aQuickStraightFlickIsASwipeAndNoPan() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 250, 100, at: 0)
        try simulation.slide(from: Point(x: 250, y: 100), to: Point(x: 150, y: 105), start: 0, duration: 0.1)
        try simulation.touch(.ended, 150, 105, at: 0.1)
        let swipes = Self.gestures(log, "gesture.swipe")
        #expect(swipes.count == 1)
        #expect(swipes.first?["direction"] == "left")
        #expect(swipes.first?["state"] == "ended")
        #expect(!log.names.contains("gesture.pan"))
        #expect(!log.names.contains("tap"))
    }

    /// Outside a scroll view the pan requires the swipe to fail: a slow drag pans once the swipe's
    /// 0.2 s are up, with the finger's whole travel as its translation.
    @Test func aSlowDragPansOnceTheSwipeHasFailed() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 160, 20, at: 0)
        try simulation.slide(from: Point(x: 160, y: 20), to: Point(x: 160, y: 120), start: 0, duration: 1)
        try simulation.touch(.ended, 160, 120, at: 1)
        let pans = log.events.filter { $0.event.name == "gesture.pan" }
        let began = try #require(pans.first)
        #expect(began.event.fields["state"] == "began")
        #expect(began.time >= VirtualTime.seconds(0.2) ?? .zero)
        #expect(began.time <= VirtualTime.seconds(0.2 + 1.0 / 60) ?? .zero)
        #expect(began.event.fields["target"] == "label")
        let ended = try #require(pans.last?.event.fields)
        #expect(ended["state"] == "ended")
        #expect(Self.field(ended["translation"], is: ["x": 0, "y": 100]))
        // A steady 100 points per second.
        #expect(abs((Self.component(ended["velocity"], "y") ?? 0) - 100) < 1e-6)
        #expect(!log.names.contains("gesture.swipe"))
    }

    @Test func aFingerInAScrollViewPansTheScrollViewAtOnceAndAHoldStopsItsVelocity() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 160, 500, at: 0)
        try simulation.slide(from: Point(x: 160, y: 500), to: Point(x: 160, y: 300), start: 0, duration: 0.25)
        try simulation.touch(.ended, 160, 300, at: 0.35)  // held still 0.1 s
        let pans = log.events.filter { $0.event.name == "gesture.pan" }
        let began = try #require(pans.first)
        #expect(began.event.fields["target"] == "scroll")
        #expect(began.time == VirtualTime.seconds(1.0 / 60))  // 13.3 points: past the 10-point threshold
        #expect(Self.field(pans.last?.event.fields["velocity"], is: ["x": 0, "y": 0]))
        #expect(!log.names.contains("gesture.swipe"))
    }

    // MARK: Pinch

    @Test func twoFingersPinchWithTheirDistanceOverTheStartingOne() throws {
        let (simulation, log) = try Self.simulation()
        try simulation.touch(.began, 110, 100, at: 0, id: 1)
        try simulation.touch(.began, 210, 100, at: 0, id: 2)
        for frame in 1...30 {
            let spread = 25 * Double(frame) / 30
            try simulation.touch(.moved, 110 - spread, 100, at: Double(frame) / 60, id: 1)
            try simulation.touch(.moved, 210 + spread, 100, at: Double(frame) / 60, id: 2)
        }
        try simulation.touch(.ended, 85, 100, at: 0.5, id: 1)
        try simulation.touch(.ended, 235, 100, at: 0.5, id: 2)
        let pinches = Self.gestures(log, "gesture.pinch")
        #expect(pinches.first?["state"] == "began")
        let ended = try #require(pinches.last)
        #expect(ended["state"] == "ended")
        #expect(Self.field(ended["scale"], is: 1.5))  // 150 / 100
        #expect(Self.field(ended["center"], is: ["x": 160, "y": 100]))
        // The scale grew by 0.5 over 0.5 s: 1 per second over the last 50 ms.
        #expect(abs((ended["velocity"]?.number ?? 0) - 1) < 1e-6)
        #expect(!log.names.contains("tap"))
        #expect(!log.names.contains("gesture.longPress"))
    }

    /// A client on a clock that does not move (manual mode) tapping by touches many times leaves
    /// one wake-up waiting on the timeline, not one per tap.
    @Test func tapsOnAStoppedClockLeaveOneWakeUpWaiting() throws {
        let (simulation, log) = try Self.simulation()
        let waiting = simulation.timeline.pendingCount
        for _ in 0..<1_000 {
            try simulation.inject(.touchBegan(Touch(id: 0, point: Point(x: 160, y: 100))))
            try simulation.inject(.touchEnded(Touch(id: 0, point: Point(x: 160, y: 100))))
        }
        #expect(log.names.filter { $0 == "tap" }.count == 1_000)
        #expect(simulation.timeline.pendingCount <= waiting + 2)
    }

    // MARK: Bad input

    @Test func touchesThatDoNotFitTheFingersDownAreRefusedAndChangeNothing() throws {
        let (simulation, log) = try Self.simulation()
        #expect(throws: InjectionError.invalidTouch("touch 4 is not down; a touch begins with touch.began")) {
            try simulation.inject(.touchMoved(Touch(id: 4, point: Point(x: 1, y: 1))))
        }
        try simulation.inject(.touchBegan(Touch(id: 4, point: Point(x: 1, y: 1))))
        #expect(throws: InjectionError.invalidTouch("touch 4 is already down")) {
            try simulation.inject(.touchBegan(Touch(id: 4, point: Point(x: 1, y: 1))))
        }
        #expect(throws: InjectionError.invalidTouch("touch at (321.0, 10.0) is off the 320.0 × 568.0 screen")) {
            try simulation.inject(.touchBegan(Touch(id: 5, point: Point(x: 321, y: 10))))
        }
        #expect(throws: FieldError.self) { try Event(name: "touch.began", fields: ["id": -1, "x": 1, "y": 1]) }
        #expect(log.names == ["touch.began"])
    }

    @Test func atMostTenFingersAreDown() throws {
        let (simulation, _) = try Self.simulation()
        for id in 0..<GestureRules.maximumTouches {
            try simulation.inject(.touchBegan(Touch(id: id, point: Point(x: 10, y: 10))))
        }
        #expect(throws: InjectionError.invalidTouch("10 touches are down, the most the screen takes")) {
            try simulation.inject(.touchBegan(Touch(id: 99, point: Point(x: 10, y: 10))))
        }
    }
}
