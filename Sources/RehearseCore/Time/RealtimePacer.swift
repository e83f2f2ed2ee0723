/// Paces a simulation to the wall clock (clock mode `realtime`): virtual time is the wall time
/// elapsed since the pacer started, times its rate, plus where the simulation was then.
public struct RealtimePacer: Sendable {
    private let startInstant: ContinuousClock.Instant
    private let startTime: VirtualTime
    /// Simulated seconds per wall-clock second (1: real time; 0.25: four times slower).
    public let rate: Double

    /// The slowest and fastest rates a pacer runs at.
    public static let rates: ClosedRange<Double> = 0.01...100

    /// Starts pacing from `time` now, at `rate` (clamped to ``rates``).
    public init(from time: VirtualTime, at instant: ContinuousClock.Instant = .now, rate: Double = 1) {
        startInstant = instant
        startTime = time
        self.rate = rate.isFinite ? min(max(rate, Self.rates.lowerBound), Self.rates.upperBound) : 1
    }

    /// The virtual time at wall-clock `instant` (never before the start).
    public func virtualTime(at instant: ContinuousClock.Instant) -> VirtualTime {
        let elapsed = max(instant - startInstant, .zero)
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        guard rate != 1 else { return startTime + VirtualTime(nanoseconds: nanoseconds) }
        return startTime + VirtualTime(nanoseconds: Int64((Double(nanoseconds) * rate).rounded(.down)))
    }

    /// The wall-clock instant at which virtual `time` comes.
    public func instant(for time: VirtualTime) -> ContinuousClock.Instant {
        let ahead = max(time.nanoseconds - startTime.nanoseconds, 0)
        return startInstant + .nanoseconds(rate == 1 ? ahead : Int64((Double(ahead) / rate).rounded(.up)))
    }
}
