extension Simulation {
    /// A tap on the status bar (`statusBar.tap`), while it shows: scrolls to its top the scroll
    /// view on screen that has `scrollsToTop`, if exactly one does, as UIKit does on iPhone ("we
    /// execute this gesture only if there's one on-screen scroll view with `scrollsToTop` == YES.
    /// If more than one is found, none will be scrolled": UIScrollView.h). On screen is
    /// ``Visibility``'s visible; a hidden status bar cannot be tapped.
    func tapStatusBar() {
        guard !scene.statusBarHidden else { return }
        // A second one settles it: the rest need not be looked at.
        let candidates = visibleScrollViewsToTop(limit: 2)
        guard candidates.count == 1, let only = candidates.first else { return }
        scrolling.scrollToTop(only)
    }

    /// The first `limit` scroll views with `scrollsToTop` that are visible (as
    /// ``visibility(of:)`` says), in the scene's order, found in one pass down the scene: a hidden
    /// or nearly transparent node hides what it holds, and a scroll view clips it, so the pass
    /// goes into neither when nothing of it is left; each node's frame on screen and what its
    /// ancestors leave visible come down from its parent, so no node's ancestors are walked.
    func visibleScrollViewsToTop(limit: Int) -> [String] {
        /// A node to look at: its parent's origin on screen (its content's, for a scroll view),
        /// its ancestors' alpha, and what they leave of the screen (cut by every scroll view).
        struct Visit {
            let id: String
            let origin: Point
            let alpha: Double
            let clip: Rect
        }
        var found: [String] = []
        var visits = [Visit(id: Scene.rootID, origin: .zero, alpha: 1, clip: scene.bounds)]
        while let visit = visits.popLast(), found.count < limit {
            let shown = scene.read(visit.id) { node -> (kind: NodeKind, scrollsToTop: Bool, children: [String])? in
                node.hidden ? nil : (node.kind, node.scrollsToTop, node.children)
            }
            guard let (kind, scrollsToTop, children) = shown ?? nil else { continue }
            let alpha = visit.alpha * presentationValue(.alpha, of: visit.id)[0]
            guard alpha > Visibility.minimumAlpha else { continue }
            var frame = Rect(presentationValue(.frame, of: visit.id))
            frame.origin = Point(x: visit.origin.x + frame.origin.x, y: visit.origin.y + frame.origin.y)
            var origin = frame.origin
            var clip = visit.clip
            if kind == .scrollView {
                // What it holds is clipped to it: when nothing of it shows, none of that does.
                guard let inside = Visibility.cut(frame, by: visit.clip) else { continue }
                if scrollsToTop, uncoveredByKeyboard(inside) != nil { found.append(visit.id) }
                let offset = Point(presentationValue(.contentOffset, of: visit.id))
                origin = Point(x: origin.x - offset.x, y: origin.y - offset.y)
                clip = inside
            }
            visits += children.reversed().map { Visit(id: $0, origin: origin, alpha: alpha, clip: clip) }
        }
        return found
    }
}
