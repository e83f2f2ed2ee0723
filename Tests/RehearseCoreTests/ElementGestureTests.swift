import Testing

@testable import RehearseCore

/// Gestures aimed at a node (``Gesture``, ``Simulation/place(_:on:)``): where they start, the
/// velocity a fling lifts with, and what they refuse.
@Suite struct ElementGestureTests {
    /// A 320 × 400 scroll view (y 100 to 500) over 2,000 points of content, with a button in it.
    static func simulation() throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("list", .scrollView, Rect(x: 0, y: 100, width: 320, height: 400)) {
            $0.contentSize = Size(width: 320, height: 2000)
        }
        try simulation.addNode("button", .button, Rect(x: 100, y: 380, width: 120, height: 40), parent: "list")
        return (simulation, simulation.record())
    }

    static func perform(_ gesture: Gesture, on anchor: GestureAnchor, in simulation: Simulation) throws {
        try simulation.inject(try simulation.place(gesture, fingers: simulation.freeFingers(gesture.fingers), on: anchor))
        simulation.advance(by: gesture.duration)
    }

    /// The touch events a run delivered, as trace lines without sequence numbers or targets.
    static func touches(_ log: EventLog) -> [String] {
        log.events.filter { $0.event.touch != nil }.map { delivered in
            let x = delivered.event.fields["x"]?.number ?? .nan
            let y = delivered.event.fields["y"]?.number ?? .nan
            return "\(delivered.event.name) \(delivered.time.seconds) \(x) \(y)"
        }
    }

    @Test func aDragOnANodeIsTheScreenDragFromItsVisibleCentre() throws {
        let (aimed, aimedLog) = try Self.simulation()
        try aimed.scene.update("list") { $0.contentOffset = Point(x: 0, y: 20) }
        // The button is at 460 to 500 on screen, its visible part 460 to 500: centre (160, 480).
        try Self.perform(
            .drag(by: Point(x: 0, y: -100), duration: Gesture.defaultDragDuration, hold: .zero),
            on: GestureAnchor(node: "button"), in: aimed)
        let (screen, screenLog) = try Self.simulation()
        try screen.scene.update("list") { $0.contentOffset = Point(x: 0, y: 20) }
        try screen.inject(
            TouchStream.drag(
                id: 0, from: Point(x: 160, y: 480), to: Point(x: 160, y: 380),
                duration: Gesture.defaultDragDuration, rate: 60))
        screen.advance(by: Gesture.defaultDragDuration)
        #expect(Self.touches(aimedLog) == Self.touches(screenLog))
        #expect(Self.touches(aimedLog).first?.hasSuffix("160.0 480.0") == true)
        #expect(aimedLog.events.map(\.traceLine) == screenLog.events.map(\.traceLine))
    }

    @Test func aPartlyClippedNodeIsTouchedAtTheCentreOfWhatShows() throws {
        let (simulation, log) = try Self.simulation()
        // With the list at offset 0 the button (380 to 420 in the list) is at 480 to 520 on
        // screen: its visible part 480 to 500, centre y 490.
        try Self.perform(.press(duration: Gesture.defaultPressDuration), on: GestureAnchor(node: "button"), in: simulation)
        #expect(Self.touches(log).first == "touch.began 0.0 160.0 490.0")
        // at: a point of the node, from its top left corner.
        try Self.perform(
            .press(duration: Gesture.defaultPressDuration), on: GestureAnchor(node: "button", at: Point(x: 10, y: 5)),
            in: simulation)
        #expect(Self.touches(log).dropFirst(2).first == "touch.began 1.0 110.0 485.0")
        #expect(throws: GestureError.outsideVisiblePart("button", Point(x: 10, y: 30))) {
            try simulation.place(
                .press(duration: Gesture.defaultPressDuration), fingers: [0],
                on: GestureAnchor(node: "button", at: Point(x: 10, y: 30)))
        }
    }

    @Test func aFlingLiftsWithExactlyItsVelocity() throws {
        for velocity in [Point(x: 0, y: -1500), Point(x: 0, y: 800), Point(x: 0, y: -123.4), Point(x: 0, y: 30)] {
            let (simulation, log) = try Self.simulation()
            try simulation.scene.update("list") { $0.contentOffset = Point(x: 0, y: 800) }
            try Self.perform(.fling(velocity: velocity), on: GestureAnchor(node: "list"), in: simulation)
            let release = try #require(log.events.compactMap { EventKind.scrollWillEndDragging.payload($0.event) }.first)
            // The content moves against the finger.
            #expect(abs(release.velocity.y + velocity.y) < 1e-6 * abs(velocity.y), "\(velocity.y): \(release.velocity.y)")
            #expect(release.velocity.x == 0)
        }
        // The finger moves for at least the velocity window, and far enough for the pan to begin.
        #expect(Gesture.flingDuration(velocity: Point(x: 0, y: 3000)) == GestureRules.velocityWindow)
        #expect(Gesture.flingDuration(velocity: Point(x: 0, y: 30)).seconds * 30 >= Gesture.flingMinimumTravel)
    }

    @Test func aNodeNotVisibleOrAFingerOffTheScreenPlacesNothing() throws {
        let (simulation, _) = try Self.simulation()
        try simulation.scene.update("button") { $0.frame.origin.y = 900 }
        #expect(throws: GestureError.notVisible("button", .clipped(by: "list", .below(500)))) {
            try simulation.place(.press(duration: Gesture.defaultPressDuration), fingers: [0], on: GestureAnchor(node: "button"))
        }
        #expect(
            "\(GestureError.notVisible("button", .clipped(by: "list", .below(500))))"
                == "button: clipped away by list (its frame starts 500 pt below list's visible bounds)")
        let drag = Gesture.drag(by: Point(x: 0, y: 400), duration: Gesture.defaultDragDuration, hold: .zero)
        // From the list's centre (300) 400 points down: the first frame past 568 is refused, not clamped.
        #expect(throws: GestureError.offScreen("list", Point(x: 160, y: 300 + 400 * (13.0 / 18)), Size(width: 320, height: 568)))
        {
            try simulation.place(drag, fingers: [0], on: GestureAnchor(node: "list"))
        }
    }

    @Test func aPinchOnANodeSpreadsItsFingersAcrossTheCentre() throws {
        let touches = Gesture.pinch(scale: 2, duration: Gesture.defaultPinchDuration).touches(from: .zero, ids: [3, 4], rate: 60)
        #expect(touches.prefix(2).map(\.touch.point) == [Point(x: -50, y: 0), Point(x: 50, y: 0)])
        #expect(touches.suffix(2).map(\.touch.point) == [Point(x: -100, y: 0), Point(x: 100, y: 0)])
        #expect(Set(touches.map(\.touch.id)) == [3, 4])
    }
}
