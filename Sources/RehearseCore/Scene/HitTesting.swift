extension Scene {
    /// The deepest visible node under `point` (screen coordinates), as UIKit's `hitTest` finds it:
    /// children on top first, each node's bounds offset by its scroll position, hidden and
    /// near-transparent nodes (alpha below 0.01) and nodes `isInteractive` refuses skipped, and
    /// nothing outside a parent's bounds hit.
    public func hitTest(_ point: Point, isInteractive: (String) -> Bool = { _ in true }) -> String? {
        guard let inside = inside(point, Self.rootID) else { return nil }
        return hitTest(inside, in: Self.rootID, isInteractive: isInteractive)
    }

    /// The deepest node under a point inside `id` (`inside`: the point in `id`'s own coordinate
    /// space, and `id`'s slot). A child is entered only once the point is inside it, so a scroll
    /// view of 1,000 rows reads each row's geometry in place and asks `isInteractive` of the one
    /// row under the finger, not of all of them (the rules are the same, in a cheaper order).
    private func hitTest(_ inside: (local: Point, slot: Int), in id: String, isInteractive: (String) -> Bool) -> String? {
        guard isInteractive(id) else { return nil }
        for child in children(atSlot: inside.slot).reversed() {
            if let inChild = self.inside(inside.local, child), let hit = hitTest(inChild, in: child, isInteractive: isInteractive)
            {
                return hit
            }
        }
        return id
    }

    /// Where `point`, in the coordinate space of `id`'s parent, falls in `id`'s own (each node's
    /// bounds offset by its scroll position), with `id`'s slot; nil unless `id` shows and the point
    /// is inside its bounds.
    private func inside(_ point: Point, _ id: String) -> (local: Point, slot: Int)? {
        guard let node = hitGeometry(of: id), node.shows else { return nil }
        let origin = node.boundsOrigin
        let local = Point(x: point.x - node.frame.minX + origin.x, y: point.y - node.frame.minY + origin.y)
        guard Rect(origin: origin, size: node.frame.size).contains(local) else { return nil }
        return (local, node.slot)
    }
}
