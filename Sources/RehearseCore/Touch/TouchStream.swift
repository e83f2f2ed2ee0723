/// A finger's event at a time from the start of a stream.
public struct TimedTouch: Hashable, Sendable {
    /// When, from the stream's start.
    public var offset: VirtualTime
    public var phase: TouchPhase
    public var touch: Touch

    public init(offset: VirtualTime, phase: TouchPhase, touch: Touch) {
        self.offset = offset
        self.phase = phase
        self.touch = touch
    }

    /// The event to inject.
    public var event: Event { Event(phase, touch) }
}

/// The touch streams of the gesture steps, written out finger by finger: a finger moves once per
/// display frame (`rate` per second, at `k × 1 s / rate` from the start, in whole nanoseconds as
/// the display link ticks), on a straight line at a steady speed, so it lifts with the speed of
/// its movement (or with none after a hold of at least ``GestureRules/velocityWindow``).
public enum TouchStream {
    /// How long a `swipe` takes (Rehearse's: fast enough to be recognised, and to fling).
    public static let swipeStepDuration = VirtualTime(nanoseconds: 100_000_000)
    /// How far a `swipe` goes when no distance is given, in points.
    public static let swipeStepDistance = 200.0
    /// How far apart a pinch's fingers start, in points (each half of it from the centre).
    public static let pinchSpan = 100.0

    /// The number of events ``drag(id:from:to:duration:hold:rate:)`` writes for `duration` at
    /// `rate`: a began, a move per frame (and one at the end if that is between frames), an end.
    /// Counted before anything is written, so a caller can refuse a stream too long to hold.
    public static func eventCount(fingers: Int, duration: VirtualTime, rate: Int) -> Double {
        Double(fingers) * ((duration.seconds * Double(rate)).rounded(.down) + 3)
    }

    /// One finger down at `from`, moved to `to` over `duration`, held still for `hold`, lifted.
    public static func drag(
        id: Int, from: Point, to: Point, duration: VirtualTime, hold: VirtualTime = .zero,
        rate: Int
    ) -> [TimedTouch] {
        path(id: id, duration: duration, rate: rate) { progress in
            Point(x: from.x + (to.x - from.x) * progress, y: from.y + (to.y - from.y) * progress)
        } + [TimedTouch(offset: duration + hold, phase: .ended, touch: Touch(id: id, point: to))]
    }

    /// One finger down at `point`, held still for `duration`, lifted.
    public static func press(id: Int, at point: Point, duration: VirtualTime) -> [TimedTouch] {
        [
            TimedTouch(offset: .zero, phase: .began, touch: Touch(id: id, point: point)),
            TimedTouch(offset: duration, phase: .ended, touch: Touch(id: id, point: point)),
        ]
    }

    /// Two fingers ``pinchSpan`` apart across `center` moving apart (or together) on a horizontal
    /// line to `scale` times that over `duration`, both lifted at the end.
    public static func pinch(ids: (Int, Int), center: Point, scale: Double, duration: VirtualTime, rate: Int) -> [TimedTouch] {
        let fingers = pinchFingers(center: center, scale: scale)
        let left = drag(id: ids.0, from: fingers.left.start, to: fingers.left.end, duration: duration, rate: rate)
        let right = drag(id: ids.1, from: fingers.right.start, to: fingers.right.end, duration: duration, rate: rate)
        // The same times for both: each of the first finger's events, then the second's.
        return zip(left, right).flatMap { [$0, $1] }
    }

    /// Where a pinch's two fingers start and end.
    public struct PinchFingers: Sendable {
        public var left: (start: Point, end: Point)
        public var right: (start: Point, end: Point)
    }

    /// The fingers of ``pinch(ids:center:scale:duration:rate:)``.
    public static func pinchFingers(center: Point, scale: Double) -> PinchFingers {
        let start = pinchSpan / 2
        let end = pinchSpan * scale / 2
        return PinchFingers(
            left: (Point(x: center.x - start, y: center.y), Point(x: center.x - end, y: center.y)),
            right: (Point(x: center.x + start, y: center.y), Point(x: center.x + end, y: center.y)))
    }

    /// A finger down at `position(0)` and moved to `position(k / n)` on each frame up to
    /// `duration` (and at `duration` itself, if it falls between frames).
    private static func path(id: Int, duration: VirtualTime, rate: Int, position: (Double) -> Point) -> [TimedTouch] {
        var events = [TimedTouch(offset: .zero, phase: .began, touch: Touch(id: id, point: position(0)))]
        guard duration > .zero, rate > 0 else { return events }
        let nanosecondsPerSecond: Int64 = 1_000_000_000
        let (product, overflow) = duration.nanoseconds.multipliedReportingOverflow(by: Int64(rate))
        guard !overflow else { return events }
        let frames = product / nanosecondsPerSecond
        // Frame k is at k / rate seconds (in whole nanoseconds, as the display link ticks), a
        // fraction k / (rate · duration) of the way (exact where that is a whole fraction).
        let frameCount = Double(rate) * duration.seconds
        for frame in stride(from: Int64(1), through: frames, by: 1) {
            let time = VirtualTime(nanoseconds: frame * nanosecondsPerSecond / Int64(rate))
            events.append(
                TimedTouch(offset: time, phase: .moved, touch: Touch(id: id, point: position(Double(frame) / frameCount))))
        }
        if events.last?.offset != duration {
            events.append(TimedTouch(offset: duration, phase: .moved, touch: Touch(id: id, point: position(1))))
        }
        return events
    }
}
