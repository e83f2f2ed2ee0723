import Foundation

/// UIScrollView's rubber band: how far the content follows a finger that drags it past an edge.
///
/// `offset = (1 - 1 / (x * c / d + 1)) * d`, where `x` is how far past the edge the finger has
/// dragged, `d` the scroll view's size on that axis and `c` = 0.55: Grant Paul's description of
/// UIScrollView (his 2014 tweet, "b = (1.0 – (1.0 / ((x * c / d) + 1.0))) * d ... UIScrollView uses
/// .55"), used the same way in Ilya Lobanov's "Deceleration mechanics of UIScrollView" (2019,
/// github.com/super-ultra/ScrollMechanics). The displacement approaches `d` and never reaches it.
public enum RubberBand {
    /// UIKit's rubber band coefficient `c`.
    public static let coefficient = 0.55

    /// The displacement for a finger `overshoot` points past the edge (0 or more) on an axis of
    /// `dimension` points (positive): `(1 - 1 / (x * c / d + 1)) * d`.
    public static func displacement(_ overshoot: Double, dimension: Double, coefficient: Double = coefficient) -> Double {
        guard overshoot > 0, dimension > 0 else { return 0 }
        return (1 - 1 / (overshoot * coefficient / dimension + 1)) * dimension
    }

    /// The overshoot that gives `displacement` (below `dimension`): the formula solved for `x`,
    /// `x = (d / c) * b / (d - b)`. A drag that starts while the content is already past an edge
    /// (caught while it springs back) goes on from the finger position that would have put it there.
    public static func overshoot(
        forDisplacement displacement: Double, dimension: Double,
        coefficient: Double = coefficient
    ) -> Double {
        guard displacement > 0, dimension > 0 else { return 0 }
        let banded = min(displacement, dimension * (1 - 1e-12))
        return dimension / coefficient * banded / (dimension - banded)
    }

    /// The offset on one axis for a finger offset `free` (where the content would be if it had no
    /// edges): inside `range` it is `free`; past an end it is that end plus the banded displacement.
    public static func offset(_ free: Double, in range: ClosedRange<Double>, dimension: Double) -> Double {
        if free < range.lowerBound { return range.lowerBound - displacement(range.lowerBound - free, dimension: dimension) }
        if free > range.upperBound { return range.upperBound + displacement(free - range.upperBound, dimension: dimension) }
        return free
    }

    /// The finger offset that ``offset(_:in:dimension:)`` maps to `offset`: its inverse.
    public static func freeOffset(_ offset: Double, in range: ClosedRange<Double>, dimension: Double) -> Double {
        if offset < range.lowerBound {
            return range.lowerBound - overshoot(forDisplacement: range.lowerBound - offset, dimension: dimension)
        }
        if offset > range.upperBound {
            return range.upperBound + overshoot(forDisplacement: offset - range.upperBound, dimension: dimension)
        }
        return offset
    }
}
