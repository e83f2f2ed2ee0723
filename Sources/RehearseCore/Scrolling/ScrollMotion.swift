/// A released scroll view moving by itself on both axes, from the moment the finger lifted: what
/// the display link advances frame by frame.
struct ScrollMotion {
    /// The scroll view, resolved once: a frame moves it without looking its id up.
    let node: NodeHandle
    /// When the finger lifted: the motions' time zero.
    let release: VirtualTime
    var horizontal: ScrollAxisMotion
    var vertical: ScrollAxisMotion
    /// Whether a frame has moved it yet (until then a plugin may still change its target).
    var hasMoved = false
    /// Whether it is a tap on the status bar's scroll to the top, which ends with
    /// `scroll.didScrollToTop` instead of `scroll.didEndDecelerating`.
    var scrollsToTop = false

    /// The scroll view's id.
    var id: String { node.id }

    func motion(_ axis: ScrollAxis) -> ScrollAxisMotion {
        switch axis {
        case .horizontal: horizontal
        case .vertical: vertical
        }
    }

    /// Whether either axis moves: UIKit's `willDecelerate`.
    var decelerates: Bool { !horizontal.isStill || !vertical.isStill }

    /// Where it comes to rest.
    var target: Point { ScrollAxis.point { motion($0).restingOffset } }

    /// The content offset at `time`.
    func offset(at time: VirtualTime) -> Point {
        let elapsed = (time - release).seconds
        return ScrollAxis.point { motion($0).offset(at: elapsed) }
    }

    /// Whether both axes have settled by `time`.
    func isSettled(at time: VirtualTime) -> Bool {
        let elapsed = (time - release).seconds
        return elapsed >= max(horizontal.duration, vertical.duration)
    }
}
