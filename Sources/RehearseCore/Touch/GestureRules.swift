/// The thresholds touch recognition uses, each with where it comes from. UIKit documents the long
/// press's; it keeps the others private, and those here are Rehearse's, chosen to behave as
/// UIKit is seen to and said so.
public enum GestureRules {
    /// `UILongPressGestureRecognizer.minimumPressDuration`'s default, 0.5 s (Apple's documentation).
    public static let longPressDuration = VirtualTime(nanoseconds: 500_000_000)
    /// `UILongPressGestureRecognizer.allowableMovement`'s default, 10 points (Apple's documentation).
    public static let longPressMovement = 10.0
    /// How far a finger may move and still tap (Rehearse's: the long press's 10 points, so a finger
    /// held still is either a tap or a long press and never neither).
    public static let tapSlop = 10.0
    /// How far a finger moves before a pan begins (Rehearse's: 10 points, as UIScrollView is seen
    /// to start tracking; UIKit does not publish its pan hysteresis).
    public static let panThreshold = 10.0
    /// A drag of a scroll view with `directionalLockEnabled` is locked to one axis when its first
    /// movement goes at least this many times further along it than across it, within 26.6° of
    /// it (Rehearse's: UIKit documents "one general direction" and keeps its angle private).
    public static let directionalLockRatio = 2.0
    /// A swipe covers at least this distance along one axis (Rehearse's; UIKit's are private)...
    public static let minimumSwipeDistance = 50.0
    /// ... within this long of the finger coming down, else it fails (and a pan waiting for it begins).
    public static let maximumSwipeDuration = VirtualTime(nanoseconds: 200_000_000)
    /// ... and strays at most this fraction of its travel off its axis.
    public static let swipeDeviation = 0.5
    /// Velocities (a pan's, a pinch's) are the change over the last 50 ms of the gesture, or over
    /// all of it when it is younger: a steady drag reports its own speed, and a finger that has
    /// rested that long reports 0 (Rehearse's window; UIKit's estimator is private).
    public static let velocityWindow = VirtualTime(nanoseconds: 50_000_000)
    /// The most fingers down at once (the iPad's 11 touches would be a nearer bound; 10 keeps two hands').
    public static let maximumTouches = 10
}
