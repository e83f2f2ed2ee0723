/// A Core Animation cubic Bézier timing function from (0, 0) to (1, 1), solved as WebKit's
/// `UnitBezier.h` does: a linear guess from 11 spline samples, up to 4 Newton iterations, then
/// bisection, all to 1e-7.
public struct UnitBezier: Hashable, Sendable {
    /// The two control points, as given to `CAMediaTimingFunction(controlPoints:)`.
    public let p1x, p1y, p2x, p2y: Double

    private let ax, bx, cx, ay, by, cy: Double
    /// x at t = 0, 0.1, ..., 1 (WebKit's 11 spline samples), stored inline so curves never allocate.
    private let splineSamples: SIMD16<Double>

    /// WebKit's `kBezierEpsilon`.
    public static let epsilon = 1e-7
    private static let maxNewtonIterations = 4
    private static let splineSampleCount = 11

    /// Creates the curve through control points (`p1x`, `p1y`) and (`p2x`, `p2y`). The x
    /// coordinates are clamped to [0, 1] so that the curve is a function of time.
    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        let p1x = min(max(p1x, 0), 1), p2x = min(max(p2x, 0), 1)
        self.p1x = p1x
        self.p1y = p1y
        self.p2x = p2x
        self.p2y = p2y
        cx = 3 * p1x
        bx = 3 * (p2x - p1x) - cx
        ax = 1 - cx - bx
        cy = 3 * p1y
        by = 3 * (p2y - p1y) - cy
        ay = 1 - cy - by
        var samples = SIMD16<Double>()
        for index in 0..<Self.splineSampleCount {
            let t = Double(index) / Double(Self.splineSampleCount - 1)
            samples[index] = ((ax * t + bx) * t + cx) * t
        }
        splineSamples = samples
    }

    public static func == (lhs: UnitBezier, rhs: UnitBezier) -> Bool {
        (lhs.p1x, lhs.p1y, lhs.p2x, lhs.p2y) == (rhs.p1x, rhs.p1y, rhs.p2x, rhs.p2y)
    }

    public func hash(into hasher: inout Hasher) {
        for value in [p1x, p1y, p2x, p2y] { hasher.combine(value) }
    }

    /// The x coordinate at curve parameter `t`.
    public func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }

    /// The y coordinate at curve parameter `t`.
    public func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    private func derivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x coordinate is `x` (in [0, 1]).
    public func solveX(_ x: Double) -> Double {
        var t0 = 0.0, t1 = 0.0, t2 = x, x2 = 0.0
        let deltaT = 1 / Double(Self.splineSampleCount - 1)
        for index in 1..<Self.splineSampleCount where x <= splineSamples[index] {
            t1 = deltaT * Double(index)
            t0 = t1 - deltaT
            let span = splineSamples[index] - splineSamples[index - 1]
            t2 = span > 0 ? t0 + (t1 - t0) * (x - splineSamples[index - 1]) / span : t0
            break
        }
        for _ in 0..<Self.maxNewtonIterations {
            x2 = sampleX(t2) - x
            if abs(x2) < Self.epsilon { return t2 }
            let d2 = derivativeX(t2)
            if abs(d2) < Self.epsilon { break }
            t2 -= x2 / d2
        }
        if abs(x2) < Self.epsilon { return t2 }
        while t0 < t1 {
            x2 = sampleX(t2)
            if abs(x2 - x) < Self.epsilon { return t2 }
            if x > x2 { t0 = t2 } else { t1 = t2 }
            t2 = (t1 + t0) / 2
        }
        return t2
    }

    /// The progress (y) at time fraction `x`, clamped to [0, 1].
    public func solve(_ x: Double) -> Double {
        sampleY(solveX(min(max(x, 0), 1)))
    }
}
