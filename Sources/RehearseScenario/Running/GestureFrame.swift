import RehearseCore

/// One moment of a gesture step (`drag`, `fling`, `swipe`, `pinch`, `long-press`, `touches`,
/// `scroll-until-visible`) on the HTML report's timeline: the scene then, and where the step's
/// fingers are.
public struct GestureFrame: Sendable {
    /// The scene at the frame's moment (its ``SceneSnapshot/time``).
    public var picture: SceneSnapshot
    /// The step's fingers down then, and those that lifted since the frame before, by id.
    public var fingers: [FingerMark]
}

/// A finger on a gesture frame.
public struct FingerMark: Hashable, Sendable {
    public var id: Int
    /// Where it is on screen (where it lifted, for one lifting).
    public var point: Point
    /// Whether it lifted (or was cancelled) since the frame before, rather than being down.
    public var isLifting: Bool
}
