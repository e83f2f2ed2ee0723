/// Paces a simulation to the wall clock (clock mode `realtime`): virtual time is the wall time
/// elapsed since the pacer started, plus where the simulation was then.
public struct RealtimePacer: Sendable {
    private let startInstant: ContinuousClock.Instant
    private let startTime: VirtualTime

    /// Starts pacing from `time` now.
    public init(from time: VirtualTime, at instant: ContinuousClock.Instant = .now) {
        startInstant = instant
        startTime = time
    }

    /// The virtual time at wall-clock `instant` (never before the start).
    public func virtualTime(at instant: ContinuousClock.Instant) -> VirtualTime {
        let elapsed = max(instant - startInstant, .zero)
        let (seconds, attoseconds) = elapsed.components
        return startTime + VirtualTime(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The wall-clock instant at which virtual `time` comes.
    public func instant(for time: VirtualTime) -> ContinuousClock.Instant {
        startInstant + .nanoseconds(max(time.nanoseconds - startTime.nanoseconds, 0))
    }
}
