extension Simulation {
    /// A tap on the status bar (`statusBar.tap`), while it shows: scrolls to its top the scroll
    /// view on screen that has `scrollsToTop`, if exactly one does, as UIKit does on iPhone ("we
    /// execute this gesture only if there's one on-screen scroll view with `scrollsToTop` == YES.
    /// If more than one is found, none will be scrolled": UIScrollView.h). On screen is
    /// ``Visibility``'s visible; a hidden status bar cannot be tapped.
    func tapStatusBar() {
        guard !scene.statusBarHidden else { return }
        // A second one settles it: the rest need not be looked at (each look walks its ancestors).
        let candidates = Array(
            scene.allIDs.lazy.filter { [scene] id in scene.read(id) { $0.kind == .scrollView && $0.scrollsToTop } == true }
                .filter { self.visibility(of: $0).isVisible }
                .prefix(2))
        guard candidates.count == 1, let only = candidates.first else { return }
        scrolling.scrollToTop(only)
    }
}
