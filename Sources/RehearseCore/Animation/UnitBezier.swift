/// A Core Animation cubic Bézier timing function from (0, 0) to (1, 1), solved as WebKit's
/// `UnitBezier.h` does: up to 8 Newton iterations from t = x, then bisection, both to 1e-7.
public struct UnitBezier: Hashable, Sendable {
    /// The two control points, as given to `CAMediaTimingFunction(controlPoints:)`.
    public let p1x, p1y, p2x, p2y: Double

    private let ax, bx, cx, ay, by, cy: Double

    /// WebKit's solver precision.
    public static let epsilon = 1e-7
    private static let newtonIterations = 8
    private static let minimumSlope = 1e-6

    /// Creates the curve through control points (`p1x`, `p1y`) and (`p2x`, `p2y`). The x
    /// coordinates are clamped to [0, 1] so that the curve is a function of time.
    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        let p1x = min(max(p1x, 0), 1)
        let p2x = min(max(p2x, 0), 1)
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
        var t = x
        for _ in 0..<Self.newtonIterations {
            let error = sampleX(t) - x
            if abs(error) < Self.epsilon { return t }
            let slope = derivativeX(t)
            if abs(slope) < Self.minimumSlope { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        while low < high {
            let sample = sampleX(t)
            if abs(sample - x) < Self.epsilon { return t }
            if x > sample { low = t } else { high = t }
            t = (high - low) / 2 + low
        }
        return t
    }

    /// The progress (y) at time fraction `x`, clamped to [0, 1].
    public func solve(_ x: Double) -> Double {
        sampleY(solveX(min(max(x, 0), 1)))
    }
}
