import Foundation

/// The spring that brings a scroll view back to its content edge: after a drag past the edge is
/// released, and after a fling reaches the edge of a scroll view that `bounces`. Critically damped,
/// mass 1, stiffness 100 (Ilya Lobanov's measurement of UIScrollView's bounce, "Deceleration
/// mechanics of UIScrollView", 2019, github.com/super-ultra/ScrollMechanics), so
/// `β = √(stiffness / mass) = 10` per second and the displacement from the rest point is
/// `x(t) = (x0 + (v0 + β x0) t) e^(-β t)` (the critically damped harmonic oscillator).
public struct BounceSpring: Hashable, Sendable {
    /// The spring's mass.
    public static let mass = 1.0
    /// The spring's stiffness.
    public static let stiffness = 100.0
    /// `β = √(stiffness / mass)`: with a damping ratio of 1, also `damping / (2 mass)`.
    public static let beta = (stiffness / mass).squareRoot()

    /// The point the spring settles at.
    public let rest: Double
    /// The displacement from `rest` at release.
    public let displacement: Double
    /// The velocity at release, points per second.
    public let velocity: Double

    public init(from start: Double, to rest: Double, velocity: Double) {
        self.rest = rest
        displacement = start - rest
        self.velocity = velocity
    }

    /// `rest + (x0 + (v0 + β x0) t) e^(-β t)`.
    public func offset(at time: Double) -> Double {
        let beta = Self.beta
        return rest + (displacement + (velocity + beta * displacement) * time) * exp(-beta * time)
    }

    /// The derivative of ``offset(at:)``: `(v0 - β (v0 + β x0) t) e^(-β t)`.
    public func velocity(at time: Double) -> Double {
        let beta = Self.beta
        return (velocity - beta * (velocity + beta * displacement) * time) * exp(-beta * time)
    }

    /// The time from which the spring stays within `threshold` points of rest: the envelope
    /// `(|x0| + |v0 + β x0| t) e^(-β t)` bounds the displacement and falls from its peak on, so the
    /// first time it is below `threshold` past its peak (found to the millisecond, at most 60 s).
    public func settlingTime(threshold: Double) -> Double {
        let beta = Self.beta
        let a = abs(displacement)
        let b = abs(velocity + beta * displacement)
        func envelope(_ time: Double) -> Double { (a + b * time) * exp(-beta * time) }
        let peak = b > 0 ? max(1 / beta - a / b, 0) : 0
        var milliseconds = (peak * 1000).rounded(.up)
        while milliseconds < 60_000, envelope(milliseconds / 1000) > threshold { milliseconds += 1 }
        return milliseconds / 1000
    }
}
