/// Moves scroll views as UIScrollView moves itself when a finger drags it (`gesture.pan` whose
/// target is a scroll view):
/// - while dragged, the content follows the finger 1:1 inside its range and by UIKit's rubber
///   band past an edge (``RubberBand``; clamped at the edge when `bounces` is off);
/// - released, it decelerates at its `decelerationRate` (``Deceleration``), bouncing off or
///   stopping at the content's edge, springs back from past an edge (``BounceSpring``), or with
///   `pagingEnabled` settles on a page (``Paging``);
/// - the motion moves the content offset on every display-link frame, before `tick`;
/// - it posts the delegate's moments: `scroll.willBeginDragging`, `scroll.didScroll` whenever the
///   offset changes, `scroll.willEndDragging` with the release velocity and the target content
///   offset (which a plugin may change while it is delivered, ``setTargetContentOffset(_:of:)``),
///   and `scroll.didEndDecelerating` once a motion has come to rest;
/// - `keyboardDismissMode` `onDrag` ends editing when a drag begins; `interactive` lets the
///   keyboard follow the finger below its top and hides or returns it on release;
/// - `directionalLockEnabled` keeps a drag begun in one general direction on that axis
///   (``NestedScrolling/lockedAxis(of:translation:)``);
/// - a tap on the status bar scrolls a scroll view to its top (``scrollToTop(_:)``).
///
/// A finger that comes down on a moving scroll view stops it where the last frame drew it (``stop(_:)``).
public final class ScrollViewService {
    /// A drag in progress.
    struct Drag {
        /// The offset the finger would hold with no edges (``RubberBand/freeOffset(_:in:dimension:)``)
        /// when the drag began, and the pan's translation then.
        let startFree: Point
        let startTranslation: Point
        /// The offset when the drag began (paging moves at most a page from it).
        let startOffset: Point
        /// The one axis a directional lock lets it move on (nil: both).
        let lockedAxis: ScrollAxis?
        /// Whether the keyboard is following this drag's finger.
        var movesKeyboard = false

        /// Whether the drag moves `node` on `axis`.
        func moves(_ node: Node, on axis: ScrollAxis) -> Bool {
            axis.scrolls(node) && (lockedAxis == nil || lockedAxis == axis)
        }
    }

    let scene: Scene
    let bus: EventBus
    let timeline: Timeline
    let animator: Animator
    let keyboard: KeyboardService
    /// How close a motion must come to rest to settle: half a pixel of the device's screen.
    let threshold: Double
    var drags: [String: Drag] = [:]
    /// The motions in flight, in the order they started.
    private var motions: [ScrollMotion] = []
    /// When each scroll view was last released without a motion, for a plugin changing its target then.
    private var stillReleases: [String: VirtualTime] = [:]

    /// Called when a motion starts (the display link wakes up).
    var onMotionStarted: () -> Void = {}

    /// Creates the system service and subscribes it to `gesture.pan`.
    init(scene: Scene, bus: EventBus, timeline: Timeline, animator: Animator, keyboard: KeyboardService, device: Device) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        self.animator = animator
        self.keyboard = keyboard
        threshold = ScrollAxisMotion.threshold(scale: Double(device.scale))
        bus.subscribe(slotOf: .gesturePan, owner: "scrolling") { [unowned self] delivered in
            guard let pan = EventKind.gesturePan.payload(delivered.event), let id = pan.target,
                let handle = self.scene.handle(id), let node = self.scene[handle], node.kind == .scrollView,
                node.scrollEnabled || self.drags[id] != nil
            else { return }
            self.handle(pan, of: node, handle)
        }
    }

    /// Whether a scroll view is moving by itself (the display link ticks meanwhile).
    public var needsFrames: Bool { !motions.isEmpty }

    /// The scroll views moving by themselves, in the order they were released: what each is doing
    /// now (``ScrollAxisMotion/stage(at:)``, of the axis still moving, vertical first) and its
    /// speed in points per second.
    public var moving: [(id: String, stage: String, speed: Double)] {
        motions.map { motion in
            let elapsed = (timeline.now - motion.release).seconds
            let stage = motion.vertical.stage(at: elapsed) ?? motion.horizontal.stage(at: elapsed) ?? "settling"
            let velocity = ScrollAxis.point { motion.motion($0).velocity(at: elapsed) }
            return (motion.id, stage, (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot())
        }
    }

    /// Whether the scroll view `id` is being dragged.
    public func isDragging(_ id: String) -> Bool { drags[id] != nil }

    /// Whether the scroll view `id` is moving by itself.
    public func isDecelerating(_ id: String) -> Bool { motions.contains { $0.id == id } }

    /// Stops the scroll view `id` as a finger coming down on a moving UIScrollView does: at the
    /// offset the last display-link frame drew, what the screen shows, not where the motion would
    /// be at the touch's own time between frames. Returns whether it was moving.
    @discardableResult
    public func stop(_ id: String) -> Bool {
        guard let index = motions.firstIndex(where: { $0.id == id }) else { return false }
        motions.remove(at: index)
        return true
    }

    /// Changes where the scroll view `id`, released just now, comes to rest, as a delegate's
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` may: it then decelerates
    /// at its rate to `offset` (kept within its content). Returns false, changing nothing, unless
    /// the finger lifted at the current time and no frame has moved it since (while
    /// `scroll.willEndDragging` is delivered).
    @discardableResult
    public func setTargetContentOffset(_ offset: Point, of id: String) -> Bool {
        guard let handle = scene.handle(id), let node = scene[handle] else { return false }
        let existing = motions.firstIndex { $0.id == id && $0.release == timeline.now && !$0.hasMoved }
        guard existing != nil || stillReleases[id] == timeline.now else { return false }
        func settle(_ axis: ScrollAxis) -> ScrollAxisMotion {
            let range = axis.range(of: node)
            let from = axis.of(node.contentOffset)
            let target = min(max(axis.of(offset), range.lowerBound), range.upperBound)
            guard axis.scrolls(node), target != from else { return .still(at: from) }
            return .settle(from: from, on: target, rate: node.decelerationRate, threshold: threshold)
        }
        let motion = ScrollMotion(
            node: handle, release: timeline.now, horizontal: settle(.horizontal), vertical: settle(.vertical))
        if let existing { motions.remove(at: existing) }
        start(motion)
        return true
    }

    // MARK: Dragging

    /// `pan` of the scroll view `node` (`handle` names it).
    private func handle(_ pan: PanGesture, of node: Node, _ handle: NodeHandle) {
        switch pan.state {
        case .began: beginDrag(node, translation: pan.translation)
        case .changed: drag(node, handle, pan)
        // The content moves against the finger (`0 - v`, so that no velocity reads -0).
        case .ended: release(node, handle, pan, velocity: Point(x: 0 - pan.velocity.x, y: 0 - pan.velocity.y))
        case .cancelled: release(node, handle, pan, velocity: .zero)
        case .failed: return
        }
    }

    private func beginDrag(_ node: Node, translation: Point) {
        stop(node.id)
        let free = ScrollAxis.point { axis in
            RubberBand.freeOffset(axis.of(node.contentOffset), in: axis.range(of: node), dimension: axis.dimension(of: node))
        }
        drags[node.id] = Drag(
            startFree: free, startTranslation: translation, startOffset: node.contentOffset,
            lockedAxis: NestedScrolling.lockedAxis(of: node, translation: translation))
        bus.publish(.scrollWillBeginDragging(NodeTarget(target: node.id)), source: "scrolling")
        if node.keyboardDismissMode == .onDrag { dismissKeyboard() }
    }

    private func drag(_ node: Node, _ handle: NodeHandle, _ pan: PanGesture) {
        guard let drag = drags[node.id] else { return }
        let offset = ScrollAxis.point { axis in
            guard drag.moves(node, on: axis) else { return axis.of(node.contentOffset) }
            let free = axis.of(drag.startFree) - (axis.of(pan.translation) - axis.of(drag.startTranslation))
            let range = axis.range(of: node)
            guard node.bounces else { return min(max(free, range.lowerBound), range.upperBound) }
            return RubberBand.offset(free, in: range, dimension: axis.dimension(of: node))
        }
        move(handle, to: offset)
        if node.keyboardDismissMode == .interactive { followKeyboard(node.id, finger: pan.location) }
    }

    private func release(_ node: Node, _ handle: NodeHandle, _ pan: PanGesture, velocity: Point) {
        guard let drag = drags.removeValue(forKey: node.id) else { return }
        func motion(_ axis: ScrollAxis) -> ScrollAxisMotion {
            let offset = axis.of(node.contentOffset)
            let range = axis.range(of: node)
            guard drag.moves(node, on: axis) else { return .still(at: offset) }
            guard node.pagingEnabled else {
                return .release(
                    at: offset, velocity: axis.of(velocity), range: range, rate: node.decelerationRate,
                    bounces: node.bounces, threshold: threshold)
            }
            let page = Paging.target(
                offset: offset, velocity: axis.of(velocity), dragStart: axis.of(drag.startOffset),
                pageSize: axis.dimension(of: node), range: range, rate: node.decelerationRate)
            guard page != offset else { return .still(at: offset) }
            return .settle(from: offset, on: page, rate: Paging.settlingRate, threshold: threshold)
        }
        let released = ScrollMotion(
            node: handle, release: timeline.now, horizontal: motion(.horizontal), vertical: motion(.vertical))
        if released.decelerates {
            start(released)
        } else {
            stillReleases[node.id] = timeline.now
        }
        bus.publish(
            .scrollWillEndDragging(
                ScrollRelease(
                    target: node.id, velocity: velocity,
                    targetContentOffset: released.target)), source: "scrolling")
        if drag.movesKeyboard { releaseKeyboard(fingerVelocity: pan.velocity.y) }
    }

    // MARK: Moving

    func start(_ motion: ScrollMotion) {
        motions.append(motion)
        onMotionStarted()
    }

    /// Moves every scroll view in motion to where it is at `time` (a display-link frame), and
    /// ends the motions that have come to rest.
    func frame(at time: VirtualTime) {
        for index in motions.indices { motions[index].hasMoved = true }
        let moving = motions
        // By index and by handle: a motion is not copied out to move it, and no id is looked up.
        for index in moving.indices where scene.contains(moving[index].node) {
            move(moving[index].node, to: moving[index].offset(at: time))
        }
        let settled = moving.filter { $0.isSettled(at: time) || !scene.contains($0.node) }
        guard !settled.isEmpty else { return }
        motions.removeAll { motion in settled.contains { $0.id == motion.id && $0.release == motion.release } }
        for motion in settled where scene.contains(motion.id) {
            let position = ScrollPosition(target: motion.id, contentOffset: scene[motion.id]?.contentOffset ?? motion.target)
            bus.publish(
                motion.scrollsToTop ? .scrollDidScrollToTop(position) : .scrollDidEndDecelerating(position), source: "scrolling")
        }
    }

    /// Sets the content offset of `id`, posting `scroll.didScroll` if it changed.
    func move(_ id: String, to offset: Point) {
        if let node = scene.handle(id) { move(node, to: offset) }
    }

    /// Sets the content offset of the scroll view `node`, posting `scroll.didScroll` if it changed.
    func move(_ node: NodeHandle, to offset: Point) {
        // Through a handle: the node is not copied out.
        guard let current = scene.read(node, { $0.contentOffset }), current != offset else { return }
        try? animator.set(offset.vector, for: .contentOffset, of: node)
        bus.publish(.scrollDidScroll(ScrollPosition(target: node.id, contentOffset: offset)), source: "scrolling")
    }
}
