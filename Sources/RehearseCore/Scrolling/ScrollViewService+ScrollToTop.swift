extension ScrollViewService {
    /// Scrolls `id` to its top, as a tap on the status bar scrolls the one scroll view on screen
    /// with `scrollsToTop` (``Simulation``'s `statusBar.tap` chooses it): its vertical offset goes
    /// to `-contentInset.top` on display-link frames, approaching it at the `fast` rate as paging
    /// does (UIKit's animation is private), its horizontal offset stays, a motion already under
    /// way stops, and `scroll.didScrollToTop` follows once it is there. Returns false, changing
    /// nothing, when it is already at its top or a finger drags it (Apple's documentation of
    /// `scrollsToTop`: "and it is not already at the top").
    @discardableResult
    public func scrollToTop(_ id: String) -> Bool {
        guard let handle = scene.handle(id), let node = scene[handle], drags[id] == nil else { return false }
        let top = -node.contentInset.top
        let offset = node.contentOffset
        guard offset.y != top else { return false }
        stop(id)
        var motion = ScrollMotion(
            node: handle, release: timeline.now, horizontal: .still(at: offset.x),
            vertical: .settle(from: offset.y, on: top, rate: Paging.settlingRate, threshold: threshold))
        motion.scrollsToTop = true
        start(motion)
        return true
    }
}
