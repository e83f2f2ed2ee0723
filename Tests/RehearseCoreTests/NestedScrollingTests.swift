import Foundation
import Testing

@testable import RehearseCore

/// Nested scroll views, `directionalLockEnabled`, `alwaysBounceVertical`/`Horizontal` and
/// `scrollsToTop` (issue 39, item 5), against UIKit's documented behaviour: the Scroll View
/// Programming Guide's cross-directional nesting (a vertical list in a horizontal pager), the
/// UIScrollView documentation of each property, and the rubber band and deceleration formulas
/// `ScrollViewTests` writes out.
@Suite struct NestedScrollingTests {
    /// A 320 × 568 horizontal pager of two pages (iPhone 5): a vertical list on the first, and a
    /// horizontal carousel (two pages of its own) at y 100 to 300 of the second.
    static func pager() throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("pager", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568)) {
            $0.contentSize = Size(width: 640, height: 568)
            $0.pagingEnabled = true
        }
        try simulation.addNode("list", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568), parent: "pager") {
            $0.contentSize = Size(width: 320, height: 2000)
        }
        try simulation.addNode("row", .view, Rect(x: 0, y: 0, width: 320, height: 44), parent: "list")
        try simulation.addNode("carousel", .scrollView, Rect(x: 320, y: 100, width: 320, height: 200), parent: "pager") {
            $0.contentSize = Size(width: 640, height: 200)
        }
        return (simulation, simulation.record())
    }

    static func targets(_ log: EventLog, _ name: String) -> [String] {
        log.events.filter { $0.event.name == name }.compactMap {
            if case .string(let target)? = $0.event.fields["target"] { target } else { nil }
        }
    }

    // MARK: Nesting

    @Test func aVerticalDragScrollsTheInnerListAndAHorizontalOnePagesTheOuterPager() throws {
        let (simulation, log) = try Self.pager()
        // 200 points up in 15 frames: the pan begins at the first (13.3 points, vertical).
        try simulation.drag(from: Point(x: 160, y: 400), to: Point(x: 160, y: 200), duration: 0.25, hold: 0.2)
        #expect(abs(try simulation.number("list.contentOffset.y") - (200 - 200.0 / 15)) < 1e-9)
        #expect(try simulation.number("pager.contentOffset.x") == 0)
        // 240 points left on the list: its content is no wider than it, so the pager takes the
        // drag, 240 - 16 = 224 points, past half a page: page 1.
        try simulation.drag(from: Point(x: 300, y: 300), to: Point(x: 60, y: 300), start: 1, duration: 0.25, hold: 0.2)
        simulation.run(until: .seconds(4)!)
        #expect(try simulation.number("pager.contentOffset.x") == 320)
        #expect(abs(try simulation.number("list.contentOffset.y") - (200 - 200.0 / 15)) < 1e-9)
        #expect(Self.targets(log, "scroll.willBeginDragging") == ["list", "pager"])
        #expect(Self.targets(log, "gesture.pan").filter { $0 == "pager" }.count >= 2)
    }

    @Test func theFirstMovementDecidesForTheWholeDrag() throws {
        let (simulation, log) = try Self.pager()
        // 20 points up (the list's), then 200 across and 20 more up: the list keeps the drag.
        try simulation.touch(.began, 160, 400, at: 0)
        try simulation.touch(.moved, 160, 380, at: 0.05)
        try simulation.touch(.moved, 60, 380, at: 0.1)
        try simulation.touch(.moved, 60, 360, at: 0.15)
        try simulation.touch(.ended, 60, 360, at: 0.35)
        #expect(try simulation.number("list.contentOffset.y") == 20)
        #expect(try simulation.number("pager.contentOffset.x") == 0)
        #expect(Set(Self.targets(log, "gesture.pan")) == ["list"])
    }

    @Test func anInnerViewAtItsEdgeDoesNotHandTheDragToTheOuterOne() throws {
        let (simulation, log) = try Self.pager()
        try simulation.setValue(320, at: "pager.contentOffset.x")
        try simulation.setValue(320, at: "carousel.contentOffset.x")  // at its right edge
        // 240 points left on the carousel (horizontal, as the pager): the nearest that moves that
        // way takes it, and past its edge it rubber-bands by 220 points, d = 320.
        try simulation.touch(.began, 300, 200, at: 0)
        try simulation.touch(.moved, 280, 200, at: 0.05)
        try simulation.touch(.moved, 60, 200, at: 0.2)
        #expect(abs(try simulation.number("carousel.contentOffset.x") - (320 + ScrollViewTests.rubberBand(220, 320))) < 1e-9)
        #expect(try simulation.number("pager.contentOffset.x") == 320)
        try simulation.touch(.ended, 60, 200, at: 0.4)
        simulation.run(until: .seconds(3)!)
        #expect(try simulation.number("carousel.contentOffset.x") == 320)
        #expect(try simulation.number("pager.contentOffset.x") == 320)
        #expect(Set(Self.targets(log, "scroll.didScroll")) == ["carousel"])
    }

    /// Ten scroll views, each inside the last: the outermost scrolls across, the nine inside it
    /// down only; a finger on the innermost.
    static func tenDeep() throws -> Simulation {
        let simulation = Simulation()
        var parent: String?
        for level in 0..<10 {
            let id = "level\(level)"
            try simulation.addNode(id, .scrollView, Rect(x: 0, y: 0, width: 320, height: 568), parent: parent) {
                $0.contentSize = level == 0 ? Size(width: 3200, height: 568) : Size(width: 320, height: 5680)
            }
            parent = id
        }
        return simulation
    }

    @Test func tenLevelsDeepTheNearestThatMovesThatWayTakesTheDrag() throws {
        let simulation = try Self.tenDeep()
        try simulation.drag(from: Point(x: 300, y: 300), to: Point(x: 100, y: 300), duration: 0.25, hold: 0.2)
        #expect(abs(try simulation.number("level0.contentOffset.x") - (200 - 200.0 / 15)) < 1e-9)
        // The nine inside now show from x -186.7 to 133.3 on screen: a finger at x 60 is on them.
        try simulation.drag(from: Point(x: 60, y: 400), to: Point(x: 60, y: 200), start: 1, duration: 0.25, hold: 0.2)
        #expect(abs(try simulation.number("level9.contentOffset.y") - (200 - 200.0 / 15)) < 1e-9)
        #expect((1...8).allSatisfy { (try? simulation.number("level\($0).contentOffset.y")) == 0 })
        // A finger coming down stops every moving scroll view it is in: fling the outermost, catch it.
        try simulation.drag(from: Point(x: 300, y: 300), to: Point(x: 200, y: 300), start: 2, duration: 0.1)
        #expect(simulation.scrolling.isDecelerating("level0"))
        try simulation.touch(.began, 160, 300, at: 2.3)
        #expect(!simulation.scrolling.isDecelerating("level0"))
    }

    // MARK: Directional lock

    static func map(locked: Bool) throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("map", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568)) {
            $0.contentSize = Size(width: 1000, height: 2000)
            $0.directionalLockEnabled = locked
        }
        return (simulation, simulation.record())
    }

    @Test(arguments: [false, true])
    func aDragBegunInOneGeneralDirectionStaysOnItsAxis(locked: Bool) throws {
        let (simulation, log) = try Self.map(locked: locked)
        try simulation.setValue(300, at: "map.contentOffset.x")
        // First movement (3, -20): 20 ≥ 2 × 3, vertical; then 27 across and 180 up, released at 0.1.
        try simulation.touch(.began, 200, 400, at: 0)
        try simulation.touch(.moved, 203, 380, at: 0.05)
        try simulation.touch(.moved, 230, 200, at: 0.1)
        #expect(try simulation.number("map.contentOffset.y") == 180)
        #expect(try simulation.number("map.contentOffset.x") == (locked ? 300 : 273))
        try simulation.touch(.ended, 230, 200, at: 0.1)
        // Released moving (27, -180) in the last 50 ms, the content at (-540, 3600) points per
        // second: locked, the horizontal part does not decelerate; free, it comes to rest at
        // x0 - v0 / (1000 ln r) (r = 0.998).
        let target = log.events.last { $0.event.name == "scroll.willEndDragging" }?.event.fields["targetContentOffset"]
        guard case .dictionary(let offset)? = target, let x = offset["x"]?.number else {
            Issue.record("no target")
            return
        }
        #expect(abs(x - (locked ? 300 : 273 + 540 / (1000 * Foundation.log(0.998)))) < 1e-6)
    }

    @Test func aDiagonalDragIsNotLocked() throws {
        let (simulation, _) = try Self.map(locked: true)
        try simulation.setValue(100, at: "map.contentOffset.x")
        try simulation.setValue(100, at: "map.contentOffset.y")
        // First movement (-15, -15): diagonal, so the drag goes both ways.
        try simulation.touch(.began, 200, 400, at: 0)
        try simulation.touch(.moved, 185, 385, at: 0.05)
        try simulation.touch(.moved, 100, 300, at: 0.1)
        #expect(try simulation.number("map.contentOffset.x") == 185)
        #expect(try simulation.number("map.contentOffset.y") == 185)
    }

    // MARK: Always bounce

    @Test(arguments: [(true, true), (false, true), (true, false)])
    func aShortContentRubberBandsWithAlwaysBounce(always: Bool, bounces: Bool) throws {
        let simulation = Simulation()
        try simulation.addNode("short", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568)) {
            $0.contentSize = Size(width: 320, height: 300)
            $0.alwaysBounceVertical = always
            $0.alwaysBounceHorizontal = always
            $0.bounces = bounces
        }
        // 300 points down in 30 frames of 10: the pan begins at the second, 280 points past the top.
        try simulation.drag(from: Point(x: 160, y: 100), to: Point(x: 160, y: 400), duration: 0.5, hold: 0.2)
        let moves = always && bounces
        #expect(abs(try simulation.number("short.contentOffset.y") - (moves ? -ScrollViewTests.rubberBand(280, 568) : 0)) < 1e-9)
        simulation.run(until: .seconds(3)!)
        #expect(try simulation.number("short.contentOffset.y") == 0)
        try simulation.drag(from: Point(x: 300, y: 300), to: Point(x: 160, y: 300), start: 3, duration: 0.5, hold: 0.2)
        let across = 140 - 140.0 / 30 * 3  // 14 points in at the third frame
        #expect(
            abs(try simulation.number("short.contentOffset.x") - (moves ? ScrollViewTests.rubberBand(across, 320) : 0)) < 1e-9)
    }

    // MARK: Scrolls to top

    static func list(_ offset: Double = 1000) throws -> (Simulation, EventLog) {
        let simulation = Simulation()
        try simulation.addNode("list", .scrollView, Rect(x: 0, y: 0, width: 320, height: 568)) {
            $0.contentSize = Size(width: 320, height: 3000)
            $0.contentInset = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
            $0.contentOffset = Point(x: 0, y: offset)
        }
        return (simulation, simulation.record())
    }

    static func tapStatusBar(_ simulation: Simulation) throws {
        try simulation.inject(.statusBarTap(StatusBarTap()))
    }

    @Test func aTapOnTheStatusBarScrollsTheOneScrollViewToItsTop() throws {
        let (simulation, log) = try Self.list()
        try Self.tapStatusBar(simulation)
        // Settled at the fast rate: x(t) = -20 + 1020 · 0.99^(1000 t), frame by frame.
        simulation.run(until: .seconds(0.1)!)
        #expect(abs(try simulation.number("list.contentOffset.y") - (-20 + 1020 * pow(0.99, 100))) < 1e-6)
        simulation.run(until: .seconds(2)!)
        #expect(try simulation.number("list.contentOffset.y") == -20)
        let ends = log.events.filter { $0.event.name == "scroll.didScrollToTop" }
        #expect(ends.count == 1 && !log.names.contains("scroll.didEndDecelerating"))
        // 1020 · 0.99^(1000 t) under half a pixel (0.25) from t = 0.827: the frame at 50/60 s.
        #expect(ends.first?.time == simulation.displayLink.time(ofFrame: 50))
        // At the top already: nothing.
        let count = log.events.count
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(4)!)
        #expect(log.names.dropFirst(count).filter { $0.hasPrefix("scroll.") }.isEmpty)
    }

    @Test func onlyATapOnTheShownStatusBarWithExactlyOneScrollViewThatScrollsToTopScrollsIt() throws {
        let (simulation, _) = try Self.list()
        try simulation.inject(.tap(Tap(point: Point(x: 160, y: 10))))  // a tap at its place is no status bar tap
        simulation.run(until: .seconds(2)!)
        #expect(try simulation.number("list.contentOffset.y") == 1000)
        try simulation.setValue(true, at: "statusBar.hidden")
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(4)!)
        #expect(try simulation.number("list.contentOffset.y") == 1000)
        try simulation.setValue(false, at: "statusBar.hidden")
        try simulation.addNode("strip", .scrollView, Rect(x: 0, y: 468, width: 320, height: 100)) {
            $0.contentSize = Size(width: 960, height: 100)
        }
        try Self.tapStatusBar(simulation)  // two on screen have it: none scrolls
        simulation.run(until: .seconds(6)!)
        #expect(try simulation.number("list.contentOffset.y") == 1000)
        try simulation.setValue(true, at: "strip.hidden")  // one on screen again
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(8)!)
        #expect(try simulation.number("list.contentOffset.y") == -20)
        try simulation.setValue(1000, at: "list.contentOffset.y")
        try simulation.setValue(false, at: "list.scrollsToTop")
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(10)!)
        #expect(try simulation.number("list.contentOffset.y") == 1000)
    }

    @Test func aTapOnTheStatusBarReplacesAFlingButNotADrag() throws {
        let (simulation, log) = try Self.list()
        // Flung down the content, then the status bar tapped mid-fling: it goes to the top instead.
        try simulation.drag(from: Point(x: 160, y: 400), to: Point(x: 160, y: 300), duration: 0.1)
        #expect(simulation.scrolling.isDecelerating("list"))
        simulation.run(until: .seconds(0.3)!)
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(2)!)
        #expect(try simulation.number("list.contentOffset.y") == -20)
        #expect(!log.names.contains("scroll.didEndDecelerating") && log.names.contains("scroll.didScrollToTop"))
        // A finger dragging it: the tap leaves it to the finger.
        try simulation.touch(.began, 160, 300, at: 3)
        try simulation.touch(.moved, 160, 250, at: 3.05)  // the pan begins here
        try simulation.touch(.moved, 160, 200, at: 3.1)
        try Self.tapStatusBar(simulation)
        simulation.run(until: .seconds(4)!)
        #expect(try simulation.number("list.contentOffset.y") == 30)  // 50 up from -20, held by the finger
    }

    /// The scroll views a status bar tap looks at, found in one pass down the scene, are the
    /// ones ``Simulation/visibility(of:)`` calls visible, whatever hides them: hidden or nearly
    /// transparent ancestors, a scroll view that clips them away, the screen's edge, less than a
    /// point left, the keyboard; a plain view off the screen does not hide what it holds back on it.
    @Test func theStatusBarsPassFindsTheVisibleScrollViewsThatVisibilityFinds() throws {
        let simulation = Simulation()
        let page = Rect(x: 0, y: 0, width: 320, height: 568)
        try simulation.addNode("field", .textField, Rect(x: 0, y: 500, width: 320, height: 30))
        try simulation.addNode("visible", .scrollView, Rect(x: 0, y: 0, width: 320, height: 100))
        try simulation.addNode("inside", .scrollView, Rect(x: 10, y: 110, width: 50, height: 50), parent: "visible")
        try simulation.addNode("scrolledAway", .scrollView, Rect(x: 10, y: 200, width: 50, height: 50), parent: "visible")
        try simulation.addNode("hider", .view, page) { $0.hidden = true }
        try simulation.addNode("underHidden", .scrollView, page, parent: "hider")
        try simulation.addNode("faint", .view, page) { $0.alpha = 0.1 }
        try simulation.addNode("fainter", .view, page, parent: "faint") { $0.alpha = 0.05 }
        try simulation.addNode("underFaint", .scrollView, page, parent: "fainter")
        try simulation.addNode("aside", .view, Rect(x: 1000, y: 0, width: 320, height: 568))
        try simulation.addNode("backOn", .scrollView, Rect(x: -1000, y: 100, width: 100, height: 100), parent: "aside")
        try simulation.addNode("offScreen", .scrollView, Rect(x: 0, y: 568, width: 320, height: 100))
        try simulation.addNode("inOffScreen", .scrollView, Rect(x: 0, y: -50, width: 320, height: 100), parent: "offScreen")
        try simulation.addNode("sliver", .scrollView, Rect(x: 0, y: 567.5, width: 320, height: 100))
        try simulation.addNode("thin", .scrollView, Rect(x: 0, y: 200, width: 0.5, height: 100))
        try simulation.addNode("low", .scrollView, Rect(x: 0, y: 300, width: 320, height: 160))
        try simulation.addNode("covered", .scrollView, Rect(x: 0, y: 460, width: 320, height: 100))
        try simulation.scene.update("visible") { $0.contentOffset = Point(x: 0, y: 100) }
        try simulation.inject(.focus(NodeTarget(target: "field")))
        simulation.advance(seconds: 1)  // the keyboard's top at 352: low shows above it, covered does not
        let scrollViews = simulation.scene.allIDs.filter { simulation.scene[$0]?.kind == .scrollView }
        let visible = scrollViews.filter { simulation.visibility(of: $0).isVisible }
        #expect(visible == ["visible", "inside", "backOn", "low"])
        #expect(simulation.visibleScrollViewsToTop(limit: scrollViews.count) == visible)
        #expect(simulation.visibleScrollViewsToTop(limit: 2) == ["visible", "inside"])
        try simulation.setValue(false, at: "inside.scrollsToTop")
        #expect(simulation.visibleScrollViewsToTop(limit: scrollViews.count) == ["visible", "backOn", "low"])
    }

    /// The scene's most scroll views (9,900), 99 chains 100 deep, each chain's top off the screen,
    /// and one list on it: a status bar tap scrolls the list. Each tap looked at every scroll
    /// view's ancestors (seconds a tap in a debug build); one pass down the scene stops at each
    /// chain's top, some 100 nodes looked at: 5 taps well within 2 s (about 10 ms each here).
    @Test func aStatusBarTapLooksAtEachHiddenSubtreeOnce() throws {
        let (simulation, _) = try Self.list()
        for chain in 0..<99 {
            var parent: String? = nil
            for level in 0..<100 {
                let id = "s\(chain)_\(level)"
                let frame = Rect(x: level == 0 ? 1000 : 0, y: 0, width: 320, height: 568)
                try simulation.addNode(id, .scrollView, frame, parent: parent)
                parent = id
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<5 { try Self.tapStatusBar(simulation) }
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(2), "5 status bar taps took \(elapsed)")
        simulation.run(until: .seconds(2)!)
        #expect(try simulation.number("list.contentOffset.y") == -20)
    }

    // MARK: Properties

    @Test func theNewPropertiesReadAndSetThroughPathsAndNodeFields() throws {
        let (simulation, _) = try Self.list()
        #expect(try simulation.value(at: "list.directionalLockEnabled") == false)
        #expect(try simulation.value(at: "list.alwaysBounceVertical") == false)
        #expect(try simulation.value(at: "list.alwaysBounceHorizontal") == false)
        #expect(try simulation.value(at: "list.scrollsToTop") == true)
        for name in ["directionalLockEnabled", "alwaysBounceVertical", "alwaysBounceHorizontal", "scrollsToTop"] {
            try simulation.setValue(.bool(name != "scrollsToTop"), at: "list.\(name)")
            #expect(try simulation.value(at: "list.\(name)") == .bool(name != "scrollsToTop"))
            #expect(throws: PathError.self) { try simulation.setValue(1, at: "list.\(name)") }
        }
        let (node, _) = try Node.read(fields: [
            "id": "list", "kind": "scrollView", "frame": [0, 0, 10, 10],
            "directionalLockEnabled": true, "alwaysBounceVertical": true,
            "alwaysBounceHorizontal": true, "scrollsToTop": false,
        ])
        #expect(node.directionalLockEnabled && node.alwaysBounceVertical && node.alwaysBounceHorizontal && !node.scrollsToTop)
    }
}
