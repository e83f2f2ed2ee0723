/// What a released scroll view does on one axis: decelerate, stop at or bounce off the content's
/// edge, spring back from past an edge, or settle on a chosen target (paging, or a target a
/// delegate set). Times are seconds since release; the motion has settled at ``duration`` and
/// stays at ``restingOffset`` from then on.
public struct ScrollAxisMotion: Hashable, Sendable {
    /// How close to its resting point a motion must stay to count as settled: half a pixel at
    /// `scale` (Lobanov's threshold, `0.5 / UIScreen.main.scale`).
    public static func threshold(scale: Double) -> Double { 0.5 / max(scale, 1) }

    /// One stretch of the motion.
    enum Phase: Hashable, Sendable {
        case decelerating(Deceleration)
        case springing(BounceSpring)
    }

    /// A phase from its start time (seconds since release) until the next one's.
    struct Segment: Hashable, Sendable {
        let start: Double
        let phase: Phase
    }

    /// The phases in time order.
    let phases: [Segment]
    /// When the motion has settled.
    public let duration: Double
    /// Where it settles.
    public let restingOffset: Double

    private init(phases: [Segment], duration: Double, restingOffset: Double) {
        self.phases = phases
        self.duration = duration
        self.restingOffset = restingOffset
    }

    /// A motion that stays at `offset`.
    public static func still(at offset: Double) -> ScrollAxisMotion {
        ScrollAxisMotion(phases: [], duration: 0, restingOffset: offset)
    }

    /// The motion of a scroll view released at `offset` with `velocity` (points per second) whose
    /// offsets run over `range`: past an edge it springs back to it (``BounceSpring``); inside it
    /// decelerates (``Deceleration``) and, if that would carry it past an edge, bounces off the edge
    /// with the velocity it has there when `bounces`, or stops dead at the edge when not.
    public static func release(
        at offset: Double, velocity: Double, range: ClosedRange<Double>,
        rate: DecelerationRate, bounces: Bool, threshold: Double
    ) -> ScrollAxisMotion {
        if !range.contains(offset) {
            let edge = min(max(offset, range.lowerBound), range.upperBound)
            guard bounces else { return .still(at: edge) }
            return spring(from: offset, to: edge, velocity: velocity, startingAt: 0, after: [], threshold: threshold)
        }
        guard velocity != 0 else { return .still(at: offset) }
        let deceleration = Deceleration(start: offset, velocity: velocity, rate: rate)
        let natural = deceleration.restingOffset
        guard !range.contains(natural) else {
            return ScrollAxisMotion(
                phases: [Segment(start: 0, phase: .decelerating(deceleration))],
                duration: deceleration.settlingTime(threshold: threshold), restingOffset: natural)
        }
        let edge = natural < range.lowerBound ? range.lowerBound : range.upperBound
        let hit = deceleration.time(toReach: edge) ?? 0
        let phases: [Segment] = [Segment(start: 0, phase: .decelerating(deceleration))]
        guard bounces else { return ScrollAxisMotion(phases: phases, duration: hit, restingOffset: edge) }
        return spring(
            from: edge, to: edge, velocity: deceleration.velocity(at: hit), startingAt: hit, after: phases,
            threshold: threshold)
    }

    /// The motion from `offset` that decelerates at `rate` to rest exactly on `target`: paging,
    /// and a target content offset a delegate chose.
    public static func settle(
        from offset: Double, on target: Double, rate: DecelerationRate,
        threshold: Double
    ) -> ScrollAxisMotion {
        let deceleration = Deceleration(start: offset, restingAt: target, rate: rate)
        return ScrollAxisMotion(
            phases: [Segment(start: 0, phase: .decelerating(deceleration))],
            duration: deceleration.settlingTime(threshold: threshold), restingOffset: target)
    }

    private static func spring(
        from start: Double, to rest: Double, velocity: Double, startingAt time: Double,
        after phases: [Segment], threshold: Double
    ) -> ScrollAxisMotion {
        let spring = BounceSpring(from: start, to: rest, velocity: velocity)
        return ScrollAxisMotion(
            phases: phases + [Segment(start: time, phase: .springing(spring))],
            duration: time + spring.settlingTime(threshold: threshold), restingOffset: rest)
    }

    /// The offset `time` seconds after release: the resting offset from ``duration`` on.
    public func offset(at time: Double) -> Double {
        guard time < duration, let current = phases.last(where: { $0.start <= time }) else { return restingOffset }
        switch current.phase {
        case .decelerating(let deceleration): return deceleration.offset(at: time - current.start)
        case .springing(let spring): return spring.offset(at: time - current.start)
        }
    }

    /// The velocity `time` seconds after release (0 once settled).
    public func velocity(at time: Double) -> Double {
        guard time < duration, let current = phases.last(where: { $0.start <= time }) else { return 0 }
        switch current.phase {
        case .decelerating(let deceleration): return deceleration.velocity(at: time - current.start)
        case .springing(let spring): return spring.velocity(at: time - current.start)
        }
    }

    /// What the motion is doing `time` seconds after release, in words (`decelerating`,
    /// `bouncing` off an edge it reached, `springing back` from past an edge it was released
    /// beyond), or nil once settled.
    public func stage(at time: Double) -> String? {
        guard time < duration, let current = phases.last(where: { $0.start <= time }) else { return nil }
        switch current.phase {
        case .decelerating: return "decelerating"
        case .springing: return current.start > 0 ? "bouncing" : "springing back"
        }
    }

    /// Whether the motion moves at all.
    public var isStill: Bool { phases.isEmpty }
}
