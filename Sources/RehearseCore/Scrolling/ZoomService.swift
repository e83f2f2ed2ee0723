/// Zooms scroll views as UIScrollView zooms itself under a pinch (`gesture.pinch` in a scroll
/// view that has a pinch recogniser and names its `viewForZooming`, ``Zooming``):
/// - while the fingers pinch, the scale is the scale when the pinch began times the pinch's
///   scale, past a limit by a rubber band when `bouncesZoom` (clamped at the limit when not,
///   ``Zooming/shownScale(_:minimum:maximum:bounces:)``); the zoom view's frame keeps its origin
///   and takes its unzoomed size times the scale, the content size follows it, and the content
///   offset keeps the point of the zoom view that was under the fingers' centre when the pinch
///   began under their centre now (so moving both fingers pans);
/// - when a finger lifts, a scale past a limit and an offset past the content's edges spring back
///   together to the limit and the nearest offset within the content, on the scroll bounce's
///   spring (``BounceSpring``: UIKit's zoom bounce animation is private), on display-link frames;
/// - it posts the delegate's moments: `scroll.willBeginZooming`, `scroll.didZoom` whenever the
///   scale changes (and `scroll.didScroll` whenever the offset does), `scroll.didEndZooming` at
///   a scale within the limits once any spring back has ended.
///
/// The zoom view's own children keep their frames: Rehearse has no transforms, so what is inside
/// a zoomed view is hit-tested and drawn at scale 1. `zoom-to` a node or scale and zooming on a
/// double tap are UIKit's `zoom(to:animated:)` and `setZoomScale(_:animated:)`, which an app calls:
/// a plugin does them (setting `zoomScale`, `contentSize`, the view's frame and `contentOffset`).
public final class ZoomService {
    /// A pinch zooming a scroll view.
    struct Pinch {
        let view: String
        /// The scale when the pinch began.
        let startScale: Double
        /// The zoom view's size at scale 1 and its origin in the content.
        let unzoomed: Size
        let origin: Point
        /// The point of the zoom view, at scale 1, that stays under the fingers' centre.
        let anchor: Point
    }

    /// A scroll view springing back after a pinch, from the moment the finger lifted.
    struct Bounce {
        let id: String
        let pinch: Pinch
        let release: VirtualTime
        let from: (scale: Double, offset: Point)
        let to: (scale: Double, offset: Point)
        /// The spring of the part left to go: from 1 to 0.
        let spring = BounceSpring(from: 1, to: 0, velocity: 0)
        let duration: Double
    }

    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    private let animator: Animator
    private let scrolling: ScrollViewService
    /// How close a spring back must come to rest to settle: half a pixel of the device's screen.
    private let threshold: Double
    private var pinches: [String: Pinch] = [:]
    private var bounces: [Bounce] = []

    /// Called when a spring back starts (the display link wakes up).
    var onMotionStarted: () -> Void = {}

    /// Creates the system service and subscribes it to `gesture.pinch`.
    init(scene: Scene, bus: EventBus, timeline: Timeline, animator: Animator, scrolling: ScrollViewService, device: Device) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        self.animator = animator
        self.scrolling = scrolling
        threshold = ScrollAxisMotion.threshold(scale: Double(device.scale))
        bus.subscribe(slotOf: .gesturePinch, owner: "zooming") { [unowned self] delivered in
            guard let pinch = EventKind.gesturePinch.payload(delivered.event), let id = self.scrollView(around: pinch.target)
            else { return }
            self.handle(pinch, of: id)
        }
    }

    /// Whether a scroll view is springing back after a pinch (the display link ticks meanwhile).
    public var needsFrames: Bool { !bounces.isEmpty }

    /// The scroll views springing back after a pinch, in the order they were released.
    public var moving: [String] { bounces.map(\.id) }

    /// Stops the spring back of scroll view `id` where the last frame drew it, as a finger coming
    /// down on it does. Returns whether it was springing back.
    @discardableResult
    public func stop(_ id: String) -> Bool {
        guard let index = bounces.firstIndex(where: { $0.id == id }) else { return false }
        bounces.remove(at: index)
        return true
    }

    /// The nearest scroll view around `node` (itself or an ancestor), if a pinch zooms it.
    private func scrollView(around node: String?) -> String? {
        // Nodes are read in place, once each: this runs on every move of a pinch.
        var current = node
        while let id = current, let (isScrollView, parent) = scene.read(id, { ($0.kind == .scrollView, $0.parent) }) {
            guard isScrollView else {
                current = parent
                continue
            }
            let zooms = scene.read(id) { Zooming.hasPinch($0) && $0.viewForZooming.map($0.children.contains) == true }
            return zooms == true ? id : nil
        }
        return nil
    }

    private func handle(_ gesture: PinchGesture, of id: String) {
        switch gesture.state {
        case .began: begin(id, gesture)
        case .changed: if let pinch = pinches[id] { zoom(id, pinch, gesture) }
        case .ended, .cancelled: end(id)
        case .failed: return
        }
    }

    private func begin(_ id: String, _ gesture: PinchGesture) {
        guard let scroll = scene[id], let view = scroll.viewForZooming, let zoomView = scene[view],
            let centre = localPoint(gesture.center, in: id)
        else { return }
        stop(id)
        let scale = scroll.zoomScale
        let origin = zoomView.frame.origin
        let anchor = Point(
            x: (scroll.contentOffset.x + centre.x - origin.x) / scale,
            y: (scroll.contentOffset.y + centre.y - origin.y) / scale)
        let pinch = Pinch(
            view: view, startScale: scale,
            unzoomed: Size(width: zoomView.frame.size.width / scale, height: zoomView.frame.size.height / scale),
            origin: origin, anchor: anchor)
        pinches[id] = pinch
        bus.publish(.scrollWillBeginZooming(ScrollZoom(target: id, view: view, zoomScale: scale)), source: "zooming")
        zoom(id, pinch, gesture)
    }

    /// The scale and offset for the pinch's scale and centre now.
    private func zoom(_ id: String, _ pinch: Pinch, _ gesture: PinchGesture) {
        let raw = pinch.startScale * gesture.scale
        guard
            let scale = scene.read(
                id,
                {
                    Zooming.shownScale(
                        raw, minimum: $0.minimumZoomScale, maximum: $0.maximumZoomScale,
                        bounces: $0.bouncesZoom)
                }),
            let centre = localPoint(gesture.center, in: id)
        else { return }
        apply(id, pinch, scale: scale, offset: offset(pinch, scale: scale, centre: centre))
    }

    /// The finger lifted: settle at once, or spring back to the limits and within the content.
    private func end(_ id: String) {
        guard let pinch = pinches.removeValue(forKey: id), let scroll = scene[id] else { return }
        let scale = min(max(scroll.zoomScale, scroll.minimumZoomScale), scroll.maximumZoomScale)
        // The content at that scale, whose offsets ScrollAxis.range gives.
        var settled = scroll
        settled.contentSize = Size(width: pinch.unzoomed.width * scale, height: pinch.unzoomed.height * scale)
        // The anchor stays where the fingers last held it, and the offset goes within the content.
        let centre = Point(
            x: pinch.origin.x + pinch.anchor.x * scroll.zoomScale - scroll.contentOffset.x,
            y: pinch.origin.y + pinch.anchor.y * scroll.zoomScale - scroll.contentOffset.y)
        let kept = offset(pinch, scale: scale, centre: centre)
        let target = ScrollAxis.point { axis in
            let range = axis.range(of: settled)
            return min(max(axis.of(kept), range.lowerBound), range.upperBound)
        }
        let from = (scale: scroll.zoomScale, offset: scroll.contentOffset)
        let distance = max(
            abs(target.x - from.offset.x), abs(target.y - from.offset.y),
            abs(settled.contentSize.width - scroll.contentSize.width),
            abs(settled.contentSize.height - scroll.contentSize.height))
        guard distance > 0 else {
            bus.publish(.scrollDidEndZooming(ScrollZoom(target: id, view: pinch.view, zoomScale: scale)), source: "zooming")
            return
        }
        let duration = BounceSpring(from: distance, to: 0, velocity: 0).settlingTime(threshold: threshold)
        bounces.append(Bounce(id: id, pinch: pinch, release: timeline.now, from: from, to: (scale, target), duration: duration))
        onMotionStarted()
    }

    /// Moves every spring back to where it is at `time` (a display-link frame), and ends those
    /// that have come to rest.
    func frame(at time: VirtualTime) {
        let moving = bounces
        for bounce in moving {
            let elapsed = (time - bounce.release).seconds
            let left = elapsed >= bounce.duration ? 0 : bounce.spring.offset(at: elapsed)
            func part(_ from: Double, _ to: Double) -> Double { left == 0 ? to : to + (from - to) * left }
            apply(
                bounce.id, bounce.pinch, scale: part(bounce.from.scale, bounce.to.scale),
                offset: Point(
                    x: part(bounce.from.offset.x, bounce.to.offset.x), y: part(bounce.from.offset.y, bounce.to.offset.y)))
        }
        let settled = moving.filter { (time - $0.release).seconds >= $0.duration || !scene.contains($0.id) }
        guard !settled.isEmpty else { return }
        bounces.removeAll { bounce in settled.contains { $0.id == bounce.id && $0.release == bounce.release } }
        for bounce in settled where scene.contains(bounce.id) {
            bus.publish(
                .scrollDidEndZooming(ScrollZoom(target: bounce.id, view: bounce.pinch.view, zoomScale: bounce.to.scale)),
                source: "zooming")
        }
    }

    /// The offset that puts the pinch's anchor under `centre` (in the scroll view's frame) at `scale`.
    private func offset(_ pinch: Pinch, scale: Double, centre: Point) -> Point {
        Point(x: pinch.origin.x + pinch.anchor.x * scale - centre.x, y: pinch.origin.y + pinch.anchor.y * scale - centre.y)
    }

    /// A screen point in the scroll view's frame coordinates (0, 0 at its top left corner on screen).
    private func localPoint(_ point: Point, in id: String) -> Point? {
        guard let frame = scene.frameInScreen(id) else { return nil }
        return Point(x: point.x - frame.minX, y: point.y - frame.minY)
    }

    /// Sets the scale (and with it the zoom view's size and the content size) and the offset,
    /// posting `scroll.didZoom` and `scroll.didScroll` for what changed.
    private func apply(_ id: String, _ pinch: Pinch, scale: Double, offset: Point) {
        guard let current = scene.read(id, \.zoomScale), scene.contains(pinch.view) else { return }
        if current != scale {
            let size = Size(width: pinch.unzoomed.width * scale, height: pinch.unzoomed.height * scale)
            try? animator.set(SIMD4(scale, 0, 0, 0), for: .zoomScale, of: id)
            try? animator.set(Rect(origin: pinch.origin, size: size).vector, for: .frame, of: pinch.view)
            try? animator.set(size.vector, for: .contentSize, of: id)
            bus.publish(.scrollDidZoom(ScrollZoom(target: id, view: pinch.view, zoomScale: scale)), source: "zooming")
        }
        scrolling.move(id, to: offset)
    }
}
