extension Scene {
    /// The deepest visible node under `point` (screen coordinates), as UIKit's `hitTest` finds it:
    /// children on top first, each node's bounds offset by its scroll position, hidden and
    /// near-transparent nodes (alpha below 0.01) and nodes `isInteractive` refuses skipped, and
    /// nothing outside a parent's bounds hit.
    public func hitTest(_ point: Point, isInteractive: (String) -> Bool = { _ in true }) -> String? {
        hitTest(point, in: Self.rootID, isInteractive: isInteractive)
    }

    /// `point` is in the coordinate space of `id`'s parent.
    private func hitTest(_ point: Point, in id: String, isInteractive: (String) -> Bool) -> String? {
        guard let node = self[id], !node.hidden, node.alpha >= 0.01, isInteractive(id) else { return nil }
        let local = Point(
            x: point.x - node.frame.minX + node.boundsOrigin.x,
            y: point.y - node.frame.minY + node.boundsOrigin.y)
        let bounds = Rect(origin: node.boundsOrigin, size: node.frame.size)
        guard bounds.contains(local) else { return nil }
        for child in node.children.reversed() {
            if let hit = hitTest(local, in: child, isInteractive: isInteractive) { return hit }
        }
        return id
    }
}
