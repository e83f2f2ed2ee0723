extension Scene {
    /// The deepest visible node under `point` (screen coordinates), as UIKit's `hitTest` finds it:
    /// children on top first, each node's bounds offset by its scroll position, hidden and
    /// near-transparent nodes (alpha below 0.01) and nodes `isInteractive` refuses skipped, and
    /// nothing outside a parent's bounds hit.
    public func hitTest(_ point: Point, isInteractive: (String) -> Bool = { _ in true }) -> String? {
        hitTest(point, in: Self.rootID, isInteractive: isInteractive)
    }

    /// `point` is in the coordinate space of `id`'s parent. The node is read in place and
    /// `isInteractive` asked last: a finger coming down passes by every node beside its path (the
    /// thousand tiles of a zoom view), and most are not under it.
    private func hitTest(_ point: Point, in id: String, isInteractive: (String) -> Bool) -> String? {
        let under = read(id) { node -> (local: Point, children: [String])? in
            guard !node.hidden, node.alpha >= 0.01 else { return nil }
            let local = Point(
                x: point.x - node.frame.minX + node.boundsOrigin.x,
                y: point.y - node.frame.minY + node.boundsOrigin.y)
            guard Rect(origin: node.boundsOrigin, size: node.frame.size).contains(local) else { return nil }
            return (local, node.children)
        }
        guard let (local, children) = under ?? nil, isInteractive(id) else { return nil }
        for child in children.reversed() {
            if let hit = hitTest(local, in: child, isInteractive: isInteractive) { return hit }
        }
        return id
    }
}
