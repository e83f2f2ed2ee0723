import Foundation

/// A damped spring from 0 to 1, as `CASpringAnimation`: mass, stiffness, damping and initial
/// velocity (in units of the whole distance per second), solved in closed form. A damping ratio
/// of 1 or more is evaluated as critically damped, as Core Animation does.
public struct Spring: Hashable, Sendable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    public let initialVelocity: Double
    /// The first time, to the millisecond, from which the spring stays within
    /// ``settlingThreshold`` of its target (at most 60 s).
    public private(set) var settlingDuration = 0.0

    /// How close to the target the spring must stay to count as settled (0.1% of the distance).
    public static let settlingThreshold = 1e-3

    /// Creates a spring; every parameter must be finite, mass and stiffness positive, damping not negative.
    public init?(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        guard [mass, stiffness, damping, initialVelocity].allSatisfy(\.isFinite),
            mass > 0, stiffness > 0, damping >= 0
        else { return nil }
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        var milliseconds = 0
        while milliseconds < 60_000, remaining(at: Double(milliseconds) / 1000).envelope >= Self.settlingThreshold {
            milliseconds += 1
        }
        settlingDuration = Double(milliseconds) / 1000
    }

    /// POP's `springBounciness` / `springSpeed` form (defaults 4 and 12, each in [0, 20]),
    /// converted to tension and friction with mass 1 as `POPAnimationExtras.mm` does.
    public static func pop(bounciness: Double = 4, speed: Double = 12, initialVelocity: Double = 0) -> Spring? {
        guard ScenarioLimits.popParameter.contains(bounciness), ScenarioLimits.popParameter.contains(speed) else { return nil }
        let (tension, friction) = popTensionAndFriction(bounciness: bounciness, speed: speed)
        return Spring(mass: 1, stiffness: tension, damping: friction, initialVelocity: initialVelocity)
    }

    /// POP's conversion from bounciness and speed to tension and friction (`POPAnimationExtras.mm`).
    public static func popTensionAndFriction(bounciness: Double, speed: Double) -> (tension: Double, friction: Double) {
        func normalize(_ value: Double, _ start: Double, _ end: Double) -> Double { (value - start) / (end - start) }
        func project(_ n: Double, _ start: Double, _ end: Double) -> Double { start + n * (end - start) }
        func quadraticOut(_ t: Double, _ start: Double, _ end: Double) -> Double { project(2 * t - t * t, start, end) }
        func noBounce(_ tension: Double) -> Double {
            if tension <= 18 { return 0.0007 * pow(tension, 3) - 0.031 * pow(tension, 2) + 0.64 * tension + 1.28 }
            if tension <= 44 { return 0.000044 * pow(tension, 3) - 0.006 * pow(tension, 2) + 0.36 * tension + 2 }
            return 0.00000045 * pow(tension, 3) - 0.000332 * pow(tension, 2) + 0.1078 * tension + 5.84
        }
        let b = project(normalize(bounciness / 1.7, 0, 20), 0, 0.8)
        let tensionQC = project(normalize(speed / 1.7, 0, 20), 0.5, 200)
        let frictionQC = quadraticOut(b, noBounce(tensionQC), 0.01)
        let tension = 194 + (tensionQC - 30) / 50 * (375 - 194)
        let friction = 25 + (frictionQC - 8) / 2 * (25 - 19)
        return (tension, friction)
    }

    /// The damping ratio ζ = c / (2 √(k m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The undamped angular frequency ω₀ = √(k / m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The distance still to go at `t` seconds (1 at the start), and an upper bound on its size
    /// from then on.
    private func remaining(at t: Double) -> (value: Double, envelope: Double) {
        let zeta = dampingRatio
        let omega = naturalFrequency
        let x0 = 1.0
        let v0 = -initialVelocity
        if zeta < 1 {
            let omegaD = omega * (1 - zeta * zeta).squareRoot()
            let b = (zeta * omega * x0 + v0) / omegaD
            let decay = exp(-zeta * omega * t)
            return (decay * (x0 * cos(omegaD * t) + b * sin(omegaD * t)), decay * (x0 * x0 + b * b).squareRoot())
        }
        // Damping ratios of 1 and more move as critically damped: Core Animation does, which is
        // how UIKit's keyboard spring (ζ = 4.56) settles in 0.5 s, and so does WebKit's spring
        // solver, written to match it. One model, whichever way a spring is written.
        let decay = exp(-omega * t)
        let b = v0 + omega * x0
        return (decay * (x0 + b * t), decay * (abs(x0) + abs(b) * t))
    }

    /// The progress (0 to 1, overshooting for bouncy springs) at `t` seconds.
    public func progress(at t: Double) -> Double {
        1 - remaining(at: max(t, 0)).value
    }
}
