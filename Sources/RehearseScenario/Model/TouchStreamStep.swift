import RehearseCore

/// What a touch step (`drag`, `swipe`, `fling`, `long-press`, `pinch`, `touches`) injects: finger
/// events at times from the step's start, and how long the step takes (the clock moves on by it).
public struct TouchStreamStep: Hashable, Sendable {
    public var events: [TimedTouch]
    public var duration: VirtualTime
    /// A gesture aimed at a node, placed when the step runs (``events`` is then its path from
    /// (0, 0), for counting); `nil` when the events are screen points.
    public var aim: Aim?

    /// A gesture, the node it starts on (found when the step runs) and where on it, and the
    /// fingers it uses.
    public struct Aim: Hashable, Sendable {
        public var gesture: Gesture
        public var node: NodeQuery
        /// A point of the node from its frame's top left corner; `nil`: the centre of its visible part.
        public var at: Point?
        public var fingers: [Int]

        public init(gesture: Gesture, node: NodeQuery, at: Point? = nil, fingers: [Int]) {
            self.gesture = gesture
            self.node = node
            self.at = at
            self.fingers = fingers
        }
    }

    public init(events: [TimedTouch], duration: VirtualTime, aim: Aim? = nil) {
        self.events = events
        self.duration = duration
        self.aim = aim
    }
}
