import Foundation

/// A flung scroll view decelerating on one axis, as UIScrollView does:
/// `x(t) = x0 + v0 * (r^(1000 t) - 1) / (1000 ln r)`, the position whose velocity
/// `v(t) = v0 * r^(1000 t)` keeps the fraction `r` (``DecelerationRate``) of itself each
/// millisecond. Its projected resting point is the limit as t → ∞, `x0 - v0 / (1000 ln r)`
/// (WWDC18 "Designing Fluid Interfaces" projects with the same rate; the closed form is Ilya
/// Lobanov's, "Deceleration mechanics of UIScrollView", 2019). Time is in seconds since release,
/// positions in points, velocities in points per second.
public struct Deceleration: Hashable, Sendable {
    /// Where the motion starts.
    public let start: Double
    /// The velocity at release, points per second.
    public let velocity: Double
    public let rate: DecelerationRate

    public init(start: Double, velocity: Double, rate: DecelerationRate) {
        self.start = start
        self.velocity = velocity
        self.rate = rate
    }

    /// The deceleration from `start` whose resting point is `target`: what UIKit runs when a delegate
    /// changes `targetContentOffset`, and what paging settles with.
    public init(start: Double, restingAt target: Double, rate: DecelerationRate) {
        self.init(start: start, velocity: (start - target) * rate.decayPerSecond, rate: rate)
    }

    /// `x(t) = x0 + v0 * (r^(1000 t) - 1) / (1000 ln r)`.
    public func offset(at time: Double) -> Double {
        start + velocity * (pow(rate.value, 1000 * time) - 1) / rate.decayPerSecond
    }

    /// `v(t) = v0 * r^(1000 t)`.
    public func velocity(at time: Double) -> Double {
        velocity * pow(rate.value, 1000 * time)
    }

    /// The limit of ``offset(at:)``: `x0 - v0 / (1000 ln r)`.
    public var restingOffset: Double {
        start - velocity / rate.decayPerSecond
    }

    /// The time at which the motion reaches `position`, if it does (a point between the start and
    /// the resting point): `t = ln(1 + (p - x0) * 1000 ln r / v0) / (1000 ln r)`.
    public func time(toReach position: Double) -> Double? {
        guard velocity != 0 else { return position == start ? 0 : nil }
        let fraction = 1 + (position - start) * rate.decayPerSecond / velocity
        guard fraction > 0, fraction <= 1 else { return nil }
        return log(fraction) / rate.decayPerSecond
    }

    /// The time from which the motion stays within `threshold` points of its resting point: the
    /// remaining distance is `|v(t)| / |1000 ln r|`, so `t = ln(threshold |1000 ln r| / |v0|) / (1000 ln r)`
    /// (0 when it starts that close).
    public func settlingTime(threshold: Double) -> Double {
        let remaining = abs(velocity / rate.decayPerSecond)
        guard remaining > threshold, threshold > 0 else { return 0 }
        return log(threshold / remaining) / rate.decayPerSecond
    }
}
