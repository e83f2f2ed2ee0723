/// The display link: while something needs frames (an animation in flight, the keyboard moving,
/// or a subscriber to `tick`), it publishes `tick` on every vsync of the device's refresh rate, at exactly
/// `k × 1 s / rate` for whole `k`, up to and including the first vsync after the demand ends; an
/// idle scene gets no ticks.
public final class DisplayLink {
    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// The frames per second.
    public let refreshRate: Int64
    private let bus: EventBus
    private let timeline: Timeline
    private let needsFrames: () -> Bool
    private var isTickScheduled = false
    /// The vsync scheduled next, and the one action that fires it: made once, not a closure per
    /// frame (each would reach this object through a weakly referenced one's slow reference counts).
    private var scheduledFrame: Int64 = 0
    private lazy var fireScheduledFrame: () -> Void = { [unowned self] in fire(frame: scheduledFrame) }

    /// The number of ticks published so far.
    public private(set) var tickCount = 0

    /// Called on every vsync with its time, before `tick` is published: what moves itself frame by
    /// frame (a decelerating scroll view) moves here, so that `tick`'s subscribers see it moved.
    public var onFrame: ((VirtualTime) -> Void)?

    /// Creates a display link ticking at `refreshRate` while `needsFrames` returns true.
    public init(refreshRate: Int, bus: EventBus, timeline: Timeline, needsFrames: @escaping () -> Bool) {
        self.refreshRate = Int64(refreshRate)
        self.bus = bus
        self.timeline = timeline
        self.needsFrames = needsFrames
    }

    /// Schedules the next vsync if frames are needed and none is scheduled.
    public func wake() {
        guard !isTickScheduled, needsFrames() else { return }
        schedule(frame: frame(after: timeline.now))
    }

    /// The number of the first vsync after `time`: the smallest `k` whose ``time(ofFrame:)``,
    /// rounded down to the nanosecond, is later than `time`. (Rounding down, a vsync's own time
    /// is a little before `k × 1 s / rate`, so `time` one nanosecond later still counts as after it:
    /// `k` is `⌈(time + 1 ns) × rate / 1 s⌉`.)
    public func frame(after time: VirtualTime) -> Int64 {
        let later = time.nanoseconds + 1
        let seconds = later / Self.nanosecondsPerSecond
        let remainder = later % Self.nanosecondsPerSecond
        return seconds * refreshRate + (remainder * refreshRate + Self.nanosecondsPerSecond - 1) / Self.nanosecondsPerSecond
    }

    /// The time of vsync number `frame`.
    public func time(ofFrame frame: Int64) -> VirtualTime {
        let seconds = frame / refreshRate
        let remainder = frame % refreshRate
        return VirtualTime(
            nanoseconds: seconds * Self.nanosecondsPerSecond
                + remainder * Self.nanosecondsPerSecond / refreshRate)
    }

    private func schedule(frame: Int64) {
        isTickScheduled = true
        scheduledFrame = frame
        timeline.schedule(at: time(ofFrame: frame), owner: "display-link", background: true, fireScheduledFrame)
    }

    /// A scheduled vsync always ticks, so the frame after an animation ends shows its final state;
    /// the next one is scheduled only if frames are still needed.
    private func fire(frame: Int64) {
        isTickScheduled = false
        tickCount += 1
        let tick = Tick(timestamp: time(ofFrame: frame), targetTimestamp: time(ofFrame: frame + 1))
        onFrame?(tick.timestamp)
        bus.publish(.tick(tick), source: "display-link")
        wake()  // the next vsync, unless a subscriber's animation already asked for it
    }
}
