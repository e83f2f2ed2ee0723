/// A gesture aimed at a node: its fingers' path relative to where it starts, which is known only
/// when it runs (the node's visible centre then, or a point of the node), since the scene moves.
/// The scenario steps (`drag: {on:}`, `swipe: {on:}`, `fling`, `pinch: {on:}`, `long-press`)
/// and ``PluginHarness`` write their fingers from here.
public enum Gesture: Hashable, Sendable {
    /// One finger moved by `by` over `duration` at a steady speed, held still for `hold`, lifted.
    case drag(by: Point, duration: VirtualTime, hold: VirtualTime)
    /// A fast drag of `distance` points in `direction` over ``TouchStream/swipeStepDuration``.
    case swipe(SwipeDirection, distance: Double)
    /// A drag lifted with `velocity` (points per second of the finger): see ``flingDuration(velocity:)``.
    case fling(velocity: Point)
    /// Two fingers ``TouchStream/pinchSpan`` apart across the start moving to `scale` times that.
    case pinch(scale: Double, duration: VirtualTime)
    /// One finger held still for `duration`.
    case press(duration: VirtualTime)

    /// A drag's duration when none is given: 0.3 s (Rehearse's, as Flutter's `tester.drag` moves
    /// in a few frames and Maestro's swipe takes 400 ms).
    public static let defaultDragDuration = VirtualTime(nanoseconds: 300_000_000)
    /// A pinch's duration when none is given: 0.5 s (Rehearse's).
    public static let defaultPinchDuration = VirtualTime(nanoseconds: 500_000_000)
    /// A long press's duration when none is given: 1 s, twice UIKit's `minimumPressDuration`.
    public static let defaultPressDuration = VirtualTime(nanoseconds: 1_000_000_000)
    /// The least a fling's finger travels, in points: twice ``GestureRules/panThreshold``, so that
    /// the pan has begun well before it lifts.
    public static let flingMinimumTravel = 2 * GestureRules.panThreshold

    /// The step that makes it: `drag`, `swipe`, `fling`, `pinch` or `long-press`.
    public var name: String {
        switch self {
        case .drag: "drag"
        case .swipe: "swipe"
        case .fling: "fling"
        case .pinch: "pinch"
        case .press: "long-press"
        }
    }

    /// How many fingers it takes.
    public var fingers: Int {
        if case .pinch = self { 2 } else { 1 }
    }

    /// How long it takes, from the first finger down to the last lifted.
    public var duration: VirtualTime {
        switch self {
        case .drag(_, let duration, let hold): duration + hold
        case .swipe: TouchStream.swipeStepDuration
        case .fling(let velocity): Self.flingDuration(velocity: velocity)
        case .pinch(_, let duration), .press(let duration): duration
        }
    }

    /// How long a fling's finger moves: at a steady `velocity` for at least
    /// ``GestureRules/velocityWindow`` (so the window the velocity is read over holds nothing but
    /// that speed, and the pan reports exactly `velocity` when the finger lifts) and long enough to
    /// travel ``flingMinimumTravel``; whole nanoseconds.
    public static func flingDuration(velocity: Point) -> VirtualTime {
        let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        guard speed > 0 else { return GestureRules.velocityWindow }
        let travel = (flingMinimumTravel / speed * 1e9).rounded(.up)
        return max(GestureRules.velocityWindow, VirtualTime(nanoseconds: travel < 1e15 ? Int64(travel) : Int64(1e15)))
    }

    /// Its finger events from `start` (the screen-point step's own, so a gesture on a node is
    /// exactly the screen-point step from where it starts), on fingers `ids` (one per finger), one
    /// move a display frame at `rate`.
    public func touches(from start: Point, ids: [Int], rate: Int) -> [TimedTouch] {
        let first = ids.first ?? 0
        func offset(_ by: Point) -> Point { Point(x: start.x + by.x, y: start.y + by.y) }
        switch self {
        case .drag(let by, let duration, let hold):
            return TouchStream.drag(id: first, from: start, to: offset(by), duration: duration, hold: hold, rate: rate)
        case .swipe(let direction, let distance):
            let to = offset(Point(x: direction.unit.x * distance, y: direction.unit.y * distance))
            return TouchStream.drag(id: first, from: start, to: to, duration: TouchStream.swipeStepDuration, rate: rate)
        case .fling(let velocity):
            let duration = duration
            let to = offset(Point(x: velocity.x * duration.seconds, y: velocity.y * duration.seconds))
            return TouchStream.drag(id: first, from: start, to: to, duration: duration, rate: rate)
        case .pinch(let scale, let duration):
            return TouchStream.pinch(
                ids: (first, ids.dropFirst().first ?? first + 1), center: start, scale: scale,
                duration: duration, rate: rate)
        case .press(let duration):
            return TouchStream.press(id: first, at: start, duration: duration)
        }
    }
}

/// Where a gesture aimed at a node starts: the centre of the node's visible part, or `at`, a point
/// in the node's own coordinates (from its frame's top left corner); found when it runs.
public struct GestureAnchor: Hashable, Sendable {
    /// The node's id.
    public var node: String
    public var at: Point?

    public init(node: String, at: Point? = nil) {
        self.node = node
        self.at = at
    }
}

/// Why a gesture aimed at a node could not be placed on the screen.
public enum GestureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The node is not visible, for this reason.
    case notVisible(String, Visibility.Problem)
    /// `at` lies outside the node's visible part.
    case outsideVisiblePart(String, Point)
    /// A finger would leave the screen (the gesture is refused, not clamped: clamping would change its distance and speed).
    case offScreen(String, Point, Size)

    public var description: String {
        switch self {
        case .notVisible(let node, let problem): "\(node): \(problem)"
        case .outsideVisiblePart(let node, let point):
            "\(node): at (\(point.x.shortDescription), \(point.y.shortDescription)) is outside its visible part"
        case .offScreen(let node, let point, let size):
            "the gesture on \(node) would take a finger to (\(point.x.shortDescription), \(point.y.shortDescription)), off the "
                + "\(size.width.shortDescription) × \(size.height.shortDescription) screen"
        }
    }
}

extension Simulation {
    /// The screen point a gesture on `anchor` starts from now, or why there is none.
    public func start(of anchor: GestureAnchor) throws(GestureError) -> Point {
        let visibility = visibility(of: anchor.node)
        guard let visible = visibility.visibleRect, let frame = visibility.frame else {
            throw .notVisible(anchor.node, visibility.problem ?? .notInScene)
        }
        guard let at = anchor.at else { return Point(x: visible.midX, y: visible.midY) }
        let point = Point(x: frame.minX + at.x, y: frame.minY + at.y)
        guard visible.contains(point) else { throw .outsideVisiblePart(anchor.node, at) }
        return point
    }

    /// The finger events of `gesture` on fingers `ids`, starting at `anchor` as it is now; throws
    /// when the node is not visible or a finger would leave the screen.
    public func place(_ gesture: Gesture, fingers ids: [Int], on anchor: GestureAnchor) throws(GestureError) -> [TimedTouch] {
        let touches = gesture.touches(from: try start(of: anchor), ids: ids, rate: device.refreshRate)
        let size = scene.bounds.size
        if let off = touches.first(where: {
            !(0...size.width).contains($0.touch.point.x) || !(0...size.height).contains($0.touch.point.y)
        }) {
            throw .offScreen(anchor.node, off.touch.point, size)
        }
        return touches
    }

    /// Checks every one of `touches` and injects each at its offset from now; throws, injecting
    /// nothing, if any is refused.
    public func inject(_ touches: [TimedTouch]) throws(InjectionError) {
        let start = now
        for timed in touches { try check(timed.event) }
        for timed in touches { try inject(timed.event, at: start + timed.offset) }
    }

    /// The lowest `count` finger ids not down now, for a gesture that adds fingers.
    public func freeFingers(_ count: Int) -> [Int] {
        var ids: [Int] = []
        var id = 0
        while ids.count < count {
            if touchesDown[id] == nil { ids.append(id) }
            id += 1
        }
        return ids
    }
}
