import Foundation

/// How an animation's progress follows time.
public enum TimingCurve: Hashable, Sendable {
    /// A Core Animation cubic Bézier over the animation's duration.
    case bezier(UnitBezier)
    /// The keyboard's curve, UIKit's curve 7: see ``KeyboardCurve``.
    case keyboard
    /// A spring; its duration is its settling time, whatever duration was asked for.
    case spring(Spring)

    /// `kCAMediaTimingFunctionLinear`.
    public static let linear = TimingCurve.bezier(UnitBezier(0, 0, 1, 1))
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0), (1, 1).
    public static let easeIn = TimingCurve.bezier(UnitBezier(0.42, 0, 1, 1))
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0), (0.58, 1).
    public static let easeOut = TimingCurve.bezier(UnitBezier(0, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1); UIView's default curve.
    public static let easeInEaseOut = TimingCurve.bezier(UnitBezier(0.42, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1), (0.25, 1).
    public static let `default` = TimingCurve.bezier(UnitBezier(0.25, 0.1, 0.25, 1))

    /// How long an animation asked to last `requested` seconds really runs: the requested time for
    /// Béziers; 0.5 s for the keyboard curve and the settling time for springs, since UIKit ignores
    /// the duration passed with curve 7 (developer.apple.com/forums/thread/48088).
    public func duration(requested: Double) -> Double {
        switch self {
        case .bezier: requested
        case .keyboard: KeyboardCurve.settlingDuration
        case .spring(let spring): spring.settlingDuration
        }
    }

    /// The progress after `elapsed` seconds of an animation that lasts `duration` seconds
    /// (as returned by ``duration(requested:)``): 0 before the start, 1 at and after the end.
    public func progress(elapsed: Double, duration: Double) -> Double {
        guard elapsed > 0 else { return 0 }
        guard elapsed < duration else { return 1 }
        switch self {
        case .bezier(let bezier): return bezier.solve(elapsed / duration)
        case .keyboard: return KeyboardCurve.progress(at: elapsed)
        case .spring(let spring): return spring.progress(at: elapsed)
        }
    }
}

/// The curves that have a name in scenario files, D-Bus and keyboard events.
public enum NamedCurve: String, CaseIterable, Sendable, Codable {
    case linear, easeIn, easeOut, easeInEaseOut, `default`, keyboard

    /// The curve the name stands for.
    public var curve: TimingCurve {
        switch self {
        case .linear: .linear
        case .easeIn: .easeIn
        case .easeOut: .easeOut
        case .easeInEaseOut: .easeInEaseOut
        case .default: .default
        case .keyboard: .keyboard
        }
    }
}

/// UIKit's keyboard curve (curve 7): a spring of mass 3, stiffness 1000 and damping 500 that iOS
/// evaluates with the critically damped formula, progress = 1 - e^(-ωt)(1 + ωt) with ω = √(1000/3),
/// settled at 0.5 s (the `CASpringAnimation` UIKit makes for it, printed in the Apple Developer
/// Forums thread "iOS Keyboard show animation curve control points",
/// developer.apple.com/forums/thread/48088): the same ``Spring`` a scenario's
/// `{spring: {mass: 3, stiffness: 1000, damping: 500}}` is.
public enum KeyboardCurve {
    /// The spring the curve is.
    public static let spring = Spring(mass: 3, stiffness: 1000, damping: 500)!
    /// ω = √(stiffness / mass) = √(1000 / 3) rad/s.
    public static var angularFrequency: Double { spring.naturalFrequency }
    /// The time after which the keyboard counts as arrived (iOS's, not the spring's 0.1% settling time).
    public static let settlingDuration = 0.5

    /// The progress after `t` seconds.
    public static func progress(at t: Double) -> Double {
        spring.progress(at: t)
    }
}
