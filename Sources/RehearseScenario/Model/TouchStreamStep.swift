import RehearseCore

/// What a touch step (`drag`, `swipe`, `long-press`, `pinch`, `touches`) injects: finger events at
/// times from the step's start, and how long the step takes (the clock moves on by it).
public struct TouchStreamStep: Hashable, Sendable {
    public var events: [TimedTouch]
    public var duration: VirtualTime
    /// The node whose centre the events' points are relative to, found when the step runs (a long
    /// press at a target); `nil` when they are screen points.
    public var target: NodeQuery?

    public init(events: [TimedTouch], duration: VirtualTime, target: NodeQuery? = nil) {
        self.events = events
        self.duration = duration
        self.target = target
    }
}
