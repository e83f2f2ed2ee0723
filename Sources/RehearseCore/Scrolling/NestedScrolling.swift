/// How a drag chooses among nested scroll views, and which axis a directional lock keeps, as
/// UIScrollView's pan recognisers decide from a drag's first movement (its translation when the
/// pan begins, ``GestureRules/panThreshold`` from where the finger came down).
enum NestedScrolling {
    /// The scroll view that a pan beginning with `translation` drags, of `chain` (the scroll views
    /// with `scrollEnabled` under the finger, nearest first): the nearest that moves along the
    /// axis the movement goes mostly along (``ScrollAxis/mostly(_:)``, ``ScrollAxis/scrolls(_:)``),
    /// as the pan of a UIScrollView that cannot move that way fails and lets an enclosing one's
    /// begin (the Scroll View Programming Guide's cross-directional nesting: a vertical list in a
    /// horizontal pager). When none does, the nearest takes it, as a lone scroll view does.
    /// The choice holds until the fingers lift: a view that reaches its edge does not hand the
    /// drag on to the one around it (UIKit's does not either).
    static func panTarget(in chain: [Node], translation: Point) -> String? {
        let axis = ScrollAxis.mostly(translation)
        return (chain.first { axis.scrolls($0) } ?? chain.first)?.id
    }

    /// The one axis a drag of `node` beginning with `translation` moves on, or nil for both:
    /// with `directionalLockEnabled`, a movement in one general direction (at least
    /// ``GestureRules/directionalLockRatio`` times longer along that axis than across it) locks
    /// the drag to that axis until it ends; a diagonal one leaves it free (Apple's documentation
    /// of `isDirectionalLockEnabled`).
    static func lockedAxis(of node: Node, translation: Point) -> ScrollAxis? {
        guard node.directionalLockEnabled else { return nil }
        let along = ScrollAxis.mostly(translation)
        let across: ScrollAxis = along == .horizontal ? .vertical : .horizontal
        let length = abs(along.of(translation))
        let stray = abs(across.of(translation))
        return length >= GestureRules.directionalLockRatio * stray ? along : nil
    }
}
