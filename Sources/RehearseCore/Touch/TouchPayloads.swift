/// One finger on the screen, as `touch.began`, `touch.moved`, `touch.ended` and `touch.cancelled`
/// carry it: which finger, where (screen points), and, as delivered, the node it came down on.
public struct Touch: DeclaredPayload {
    public static let payloadFields = PayloadFields(
        .required("id", Int.self), .required("x", Double.self), .required("y", Double.self),
        .optional("target", String.self), remark: "delivered with target")

    /// Which finger: the same id from `touch.began` to `touch.ended` or `touch.cancelled`.
    public var id: Int
    /// Where the finger is, in screen coordinates.
    public var point: Point
    /// The node the finger came down on: hit-tested at `touch.began` and kept until it lifts, as
    /// `UITouch.view` is. Set on delivery; `nil` as injected.
    public var target: String?

    public init(id: Int, point: Point, target: String? = nil) {
        self.id = id
        self.point = point
        self.target = target
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        id = try reader.required("id")
        point = Point(x: try reader.required("x"), y: try reader.required("y"))
        target = try reader.optional("target")
        try reader.finish()
        guard id >= 0 else { throw FieldError(path: "id", problem: .invalidValue("must be 0 or more, found \(id)")) }
    }

    public var fields: Fields {
        var fields: Fields = ["id": .int(Int64(id)), "x": .double(point.x), "y": .double(point.y)]
        fields["target"] = target.map(FieldValue.string)
        return fields
    }
}

extension EventKind where Payload == Touch {
    public static var touchBegan: Self { Self(.touchBegan) { if case .touchBegan(let p) = $0 { p } else { nil } } }
    public static var touchMoved: Self { Self(.touchMoved) { if case .touchMoved(let p) = $0 { p } else { nil } } }
    public static var touchEnded: Self { Self(.touchEnded) { if case .touchEnded(let p) = $0 { p } else { nil } } }
    public static var touchCancelled: Self { Self(.touchCancelled) { if case .touchCancelled(let p) = $0 { p } else { nil } } }
}

/// A gesture recogniser's state, as `UIGestureRecognizer.State`. The bus carries what a
/// recogniser's target would be sent: `began`, `changed`, `ended` (also a discrete gesture's
/// recognition) and `cancelled`; UIKit sends no action when a recogniser fails, and neither does
/// the bus, but the state machine goes through `failed` all the same.
public enum GestureState: String, CaseIterable, Sendable, Codable {
    case began, changed, ended, cancelled, failed
}

/// A swipe's direction, as `UISwipeGestureRecognizer.Direction`: where the finger went.
public enum SwipeDirection: String, CaseIterable, Sendable, Codable {
    case up, down, left, right

    /// A unit step in this direction, in screen coordinates (y grows downwards).
    public var unit: Point {
        switch self {
        case .up: Point(x: 0, y: -1)
        case .down: Point(x: 0, y: 1)
        case .left: Point(x: -1, y: 0)
        case .right: Point(x: 1, y: 0)
        }
    }
}

/// `gesture.pan`, as `UIPanGestureRecognizer`: the finger's travel since it came down and its velocity.
public struct PanGesture: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(state: .began, target: nil, translation: .zero, velocity: .zero, location: .zero),
        .choice("state", \.state), .optional("target", \.target), .required("translation", \.translation, "{x,y}"),
        .required("velocity", \.velocity, "{x,y} pt/s", magnitude: ScenarioLimits.gestureVelocity),
        .required("location", \.location, "{x,y}"))

    public var state: GestureState
    /// The node the pan belongs to: the scroll view the finger is in (a scroll view pans itself),
    /// or else the node it came down on.
    public var target: String?
    /// `translation(in:)`: where the finger is less where it came down, in points.
    public var translation: Point
    /// `velocity(in:)`, in points per second.
    public var velocity: Point
    /// The finger, in screen coordinates.
    public var location: Point

    public init(state: GestureState, target: String?, translation: Point, velocity: Point, location: Point) {
        self.state = state
        self.target = target
        self.translation = translation
        self.velocity = velocity
        self.location = location
    }
}

extension EventKind where Payload == PanGesture {
    public static var gesturePan: Self { Self(.gesturePan) { if case .gesturePan(let p) = $0 { p } else { nil } } }
}

/// `gesture.swipe`, as `UISwipeGestureRecognizer`: a discrete gesture, delivered once as `ended`.
public struct SwipeGesture: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(state: .ended, target: nil, direction: .up, location: .zero),
        .choice("state", \.state), .optional("target", \.target), .choice("direction", \.direction),
        .required("location", \.location, "{x,y}"))

    public var state: GestureState
    public var target: String?
    public var direction: SwipeDirection
    /// Where the finger was when the swipe was recognised.
    public var location: Point

    public init(state: GestureState, target: String?, direction: SwipeDirection, location: Point) {
        self.state = state
        self.target = target
        self.direction = direction
        self.location = location
    }
}

extension EventKind where Payload == SwipeGesture {
    public static var gestureSwipe: Self { Self(.gestureSwipe) { if case .gestureSwipe(let p) = $0 { p } else { nil } } }
}

/// `gesture.longPress`, as `UILongPressGestureRecognizer`: begins once the finger has been held
/// still long enough, changes as it moves, ends when it lifts.
public struct LongPressGesture: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(state: .began, target: nil, location: .zero),
        .choice("state", \.state), .optional("target", \.target), .required("location", \.location, "{x,y}"))

    public var state: GestureState
    public var target: String?
    public var location: Point

    public init(state: GestureState, target: String?, location: Point) {
        self.state = state
        self.target = target
        self.location = location
    }
}

extension EventKind where Payload == LongPressGesture {
    public static var gestureLongPress: Self {
        Self(.gestureLongPress) { if case .gestureLongPress(let p) = $0 { p } else { nil } }
    }
}

/// `gesture.pinch`, as `UIPinchGestureRecognizer`: two fingers' distance relative to where they
/// started, its rate of change and their midpoint.
public struct PinchGesture: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(state: .began, target: nil, scale: 1, velocity: 0, center: .zero),
        .choice("state", \.state), .optional("target", \.target),
        .required("scale", \.scale, within: 0...ScenarioLimits.pinchScale),
        .required(
            "velocity", \.velocity, "(scale/s)", within: -ScenarioLimits.pinchVelocity...ScenarioLimits.pinchVelocity),
        .required("center", \.center, "{x,y}"))

    public var state: GestureState
    public var target: String?
    /// The fingers' distance over their distance when the second came down.
    public var scale: Double
    /// The scale's change per second.
    public var velocity: Double
    /// The midpoint of the two fingers, in screen coordinates.
    public var center: Point

    public init(state: GestureState, target: String?, scale: Double, velocity: Double, center: Point) {
        self.state = state
        self.target = target
        self.scale = scale
        self.velocity = velocity
        self.center = center
    }
}

extension EventKind where Payload == PinchGesture {
    public static var gesturePinch: Self { Self(.gesturePinch) { if case .gesturePinch(let p) = $0 { p } else { nil } } }
}
