extension Scene {
    /// The deepest visible node under `point` (screen coordinates), as UIKit's `hitTest` finds it:
    /// children on top first, each node's bounds offset by its scroll position, hidden and
    /// near-transparent nodes (alpha below 0.01) and nodes `isInteractive` refuses skipped, and
    /// nothing outside a parent's bounds hit.
    public func hitTest(_ point: Point, isInteractive: (String) -> Bool = { _ in true }) -> String? {
        hitTest(point, in: Self.rootID, isInteractive: isInteractive)
    }

    /// `point` is in the coordinate space of `id`'s parent. Each node's geometry is read in place,
    /// and it is asked `isInteractive` only once the point is inside it: a scroll view of 1,000 rows
    /// copies no row out and asks for the one row under the finger, not for all of them (the rules
    /// are the same, in a cheaper order).
    private func hitTest(_ point: Point, in id: String, isInteractive: (String) -> Bool) -> String? {
        guard let node = hitGeometry(of: id), node.shows else { return nil }
        let origin = node.boundsOrigin
        let local = Point(x: point.x - node.frame.minX + origin.x, y: point.y - node.frame.minY + origin.y)
        guard Rect(origin: origin, size: node.frame.size).contains(local), isInteractive(id) else { return nil }
        for child in children(atSlot: node.slot).reversed() {
            if let hit = hitTest(local, in: child, isInteractive: isInteractive) { return hit }
        }
        return id
    }
}
