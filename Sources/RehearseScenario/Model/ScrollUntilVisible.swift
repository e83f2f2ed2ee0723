import RehearseCore

/// `scroll-until-visible: {node, in, direction?, max?}`: drags the scroll view `scrollView` until
/// `node` is fully visible, each drag followed by the wait for the scroll view to come to rest,
/// at most `maximumDrags` times.
public struct ScrollUntilVisible: Hashable, Sendable {
    /// The drags made when `max` is not given (Maestro's and Flutter's `scrollUntilVisible` give up
    /// after a bounded number of scrolls too).
    public static let defaultMaximumDrags = 20
    /// How far each drag moves the finger: this fraction of the scroll view's visible side along
    /// the direction (Rehearse's: half, so a row seen at the edge of one drag is still in view after it).
    public static let dragFraction = 0.5
    /// How long each drag moves the finger; it is then held still for ``holdDuration`` so that it
    /// lifts with no velocity and the content does not fling.
    public static let dragDuration = VirtualTime(nanoseconds: 300_000_000)
    /// Twice ``GestureRules/velocityWindow``: the finger lifts with a velocity of 0.
    public static let holdDuration = GestureRules.velocityWindow + GestureRules.velocityWindow
    /// The longest wait after a drag for the scroll view to come to rest (a bounce back from past
    /// an edge takes well under a second); past it the step fails.
    public static let restLimit = VirtualTime(nanoseconds: 5_000_000_000)

    /// The most one drag can take: the drag, the hold, and the wait for rest, which may end a
    /// display frame past ``restLimit`` (a second at the slowest refresh rate a device may have).
    public static let longestDrag =
        dragDuration + holdDuration + restLimit
        + VirtualTime(nanoseconds: 1_000_000_000 / Int64(ScenarioLimits.deviceRefreshRate.lowerBound))

    /// The most the step can take, all its drags made: what the steps' clock counts it at.
    public var longestDuration: VirtualTime {
        VirtualTime(nanoseconds: Self.longestDrag.nanoseconds * Int64(maximumDrags))
    }

    /// The node to bring into view.
    public var node: NodeQuery
    /// The scroll view to drag.
    public var scrollView: NodeQuery
    /// Which way to look through the content (`down` shows what is further down: the finger moves
    /// up); `nil`: toward the node, found before each drag.
    public var direction: SwipeDirection?
    public var maximumDrags: Int

    public init(node: NodeQuery, scrollView: NodeQuery, direction: SwipeDirection?, maximumDrags: Int) {
        self.node = node
        self.scrollView = scrollView
        self.direction = direction
        self.maximumDrags = maximumDrags
    }
}
