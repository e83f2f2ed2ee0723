extension Scene {
    /// The deepest visible node under `point` (screen coordinates), as UIKit's `hitTest` finds it:
    /// children on top first, each node's bounds offset by its scroll position, hidden and
    /// near-transparent nodes (alpha below 0.01) and nodes `isInteractive` refuses skipped, and
    /// nothing outside a parent's bounds hit.
    public func hitTest(_ point: Point, isInteractive: (String) -> Bool = { _ in true }) -> String? {
        guard let root = slot(of: Self.rootID), let local = inside(point, atSlot: root) else { return nil }
        return hitTest(local, atSlot: root, isInteractive: isInteractive)
    }

    /// The deepest node under `point` inside the node in `slot` (`point` in that node's own
    /// coordinate space). A child is entered only once the point is inside it, so a scroll view of
    /// 1,000 rows reads each row's geometry in place, by slot, and asks `isInteractive` of the one
    /// row under the finger, not of all of them (the rules are the same, in a cheaper order).
    private func hitTest(_ point: Point, atSlot slot: Int, isInteractive: (String) -> Bool) -> String? {
        let id = id(atSlot: slot)
        guard isInteractive(id) else { return nil }
        for child in childSlots(atSlot: slot).reversed() {
            if let inChild = inside(point, atSlot: child), let hit = hitTest(inChild, atSlot: child, isInteractive: isInteractive)
            {
                return hit
            }
        }
        return id
    }

    /// Where `point`, in the coordinate space of the parent of the node in `slot`, falls in the
    /// node's own (its bounds offset by its scroll position); nil unless the node shows and the
    /// point is inside its bounds.
    private func inside(_ point: Point, atSlot slot: Int) -> Point? {
        let node = hitGeometry(atSlot: slot)
        guard node.shows else { return nil }
        let origin = node.boundsOrigin
        let local = Point(x: point.x - node.frame.minX + origin.x, y: point.y - node.frame.minY + origin.y)
        guard Rect(origin: origin, size: node.frame.size).contains(local) else { return nil }
        return local
    }
}
