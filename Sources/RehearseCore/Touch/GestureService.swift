/// Recognises gestures in the touches on the bus and publishes them (`gesture.pan`,
/// `gesture.swipe`, `gesture.longPress`, `gesture.pinch`), plus a `tap` for a finger that lifts
/// within a tap's slop; the rules are ``TouchSequence``'s. A finger that comes down in a scroll view
/// (one with `scrollEnabled`) belongs to a scroll view's pan, and stops every moving scroll view
/// it is in; among nested ones, the pan drags the one its first movement chooses
/// (``NestedScrolling/panTarget(in:translation:)``), the nearest until then.
public final class GestureService {
    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    private var sequence: TouchSequence?
    /// The scroll views with `scrollEnabled` the current sequence's first finger is in, nearest first.
    private var scrollViews: [String] = []
    /// When the current sequence asked to be woken, soonest first.
    private var wakeTimes: [VirtualTime] = []
    /// The time of the one wake-up on the timeline, if any: a finger that taps on a clock that
    /// does not move (a D-Bus client in manual mode) leaves one item there, not one per tap.
    private var scheduledWake: VirtualTime?
    /// Whether moves are being held to reach the recognisers together (``together(_:)``), and those held.
    private var holdsMoves = false
    private var heldMoves: [(id: Int, point: Point)] = []

    /// Stops the scroll view with this id if it is moving; returns whether it was.
    var stopScrolling: (String) -> Bool = { _ in false }
    /// Publishes a tap the fingers made, as an injected tap is published (hit-tested on the way in).
    var emitTap: (Tap) -> Void = { _ in }

    /// The touch events, every phase's: made once, not for every simulation.
    private static let touchEvents = EventSelector.names(
        Set(TouchPhase.allCases.map { Event($0, Touch(id: 0, point: .zero)).name }))

    /// Creates the system service and subscribes it to the touch events.
    init(scene: Scene, bus: EventBus, timeline: Timeline) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        bus.subscribe(Self.touchEvents, owner: "gestures") { [unowned self] delivered in
            guard let (phase, touch) = delivered.event.touch else { return }
            self.handle(phase, touch)
        }
    }

    /// Runs `deliver`, which publishes the touches of one instant, as one touch event: their moves
    /// reach the recognisers together once all are delivered (UIKit's one `touchesMoved` call),
    /// so no recogniser sees one finger moved and another not yet.
    func together<Failure: Error>(_ deliver: () throws(Failure) -> Void) throws(Failure) {
        holdsMoves = true
        defer {
            holdsMoves = false
            releaseHeldMoves()
        }
        try deliver()
    }

    private func handle(_ phase: TouchPhase, _ touch: Touch) {
        if phase == .moved, holdsMoves {
            if heldMoves.contains(where: { $0.id == touch.id }) { releaseHeldMoves() }
            heldMoves.append((touch.id, touch.point))
            return
        }
        releaseHeldMoves()
        let now = timeline.now
        guard sequence != nil else {
            if phase == .began { start(touch, at: now) }
            return
        }
        update { current in
            switch phase {
            case .began:
                current.began(id: touch.id, at: touch.point, time: now, inScrollView: isIn(touch.target, current.panTarget))
            case .moved: current.moved(CollectionOfOne((touch.id, touch.point)), time: now)
            case .ended: current.ended(id: touch.id, at: touch.point, time: now)
            case .cancelled: current.cancelled(id: touch.id, at: touch.point)
            }
        }
    }

    /// Gives the recognisers the moves held so far, as one touch event.
    private func releaseHeldMoves() {
        guard !heldMoves.isEmpty else { return }
        let moves = heldMoves
        let now = timeline.now
        heldMoves = []
        update { $0.moved(moves, time: now) }
    }

    /// Changes the current sequence (if any) and performs what it asks for.
    private func update(_ change: (inout TouchSequence) -> [GestureOutput]) {
        // Taken out while it changes, so that its fingers and trackers are not copied on write.
        guard var current = sequence.take() else { return }
        let outputs = change(&current)
        sequence = current.isOver ? nil : current
        if current.isOver { wakeTimes = [] }
        perform(outputs)
    }

    /// `node` and its ancestors, nearest first.
    private func lineage(of node: String) -> UnfoldFirstSequence<String> {
        Swift.sequence(first: node) { [scene] in scene.read($0) { $0.parent } ?? nil }
    }

    /// Whether `node` is `ancestor` or lies inside it.
    private func isIn(_ node: String?, _ ancestor: String?) -> Bool {
        guard let node, let ancestor else { return false }
        return lineage(of: node).contains(ancestor)
    }

    private func start(_ touch: Touch, at now: VirtualTime) {
        wakeTimes = []
        scrollViews =
            touch.target.map { target in
                lineage(of: target).filter { [scene] in scene.read($0) { $0.kind == .scrollView && $0.scrollEnabled } ?? false }
            } ?? []
        let scrollView = scrollViews.first
        let stopped = scrollViews.map(stopScrolling).contains(true)
        let zooms = scrollView.flatMap { [scene] in scene.read($0, Zooming.hasPinch) } ?? false
        let (started, outputs) = TouchSequence.begin(
            id: touch.id, at: touch.point, time: now, target: touch.target, panTarget: scrollView ?? touch.target,
            pansScrollView: scrollView != nil, zooms: zooms, stoppedScrolling: stopped)
        sequence = started
        perform(outputs)
    }

    private func perform(_ outputs: [GestureOutput]) {
        var chosen: String?
        for output in outputs {
            switch output {
            case .pan(var pan):
                if pan.state == .began, scrollViews.count > 1 { chosen = choosePanTarget(translation: pan.translation) }
                if let chosen { pan.target = chosen }
                bus.publish(.gesturePan(pan), source: "gestures")
            case .swipe(let swipe): bus.publish(.gestureSwipe(swipe), source: "gestures")
            case .longPress(let press): bus.publish(.gestureLongPress(press), source: "gestures")
            case .pinch(let pinch): bus.publish(.gesturePinch(pinch), source: "gestures")
            case .tap(let point): emitTap(Tap(point: point))
            case .wakeUp(let time): scheduleWakeUp(at: time)
            }
        }
    }

    /// The scroll view of ``scrollViews`` a pan beginning with `translation` drags, kept as the
    /// sequence's pan target for the rest of it.
    private func choosePanTarget(translation: Point) -> String? {
        let chain = scrollViews.compactMap { scene[$0] }
        guard let chosen = NestedScrolling.panTarget(in: chain, translation: translation) else { return nil }
        sequence?.panTarget = chosen
        return chosen
    }

    private func scheduleWakeUp(at time: VirtualTime) {
        if !wakeTimes.contains(time) {
            wakeTimes.append(time)
            wakeTimes.sort()
        }
        armWakeUp()
    }

    /// Puts a wake-up on the timeline for the soonest time asked for, unless one at or before it is there.
    private func armWakeUp() {
        guard let next = wakeTimes.first, scheduledWake.map({ $0 > next }) ?? true else { return }
        scheduledWake = next
        timeline.schedule(at: next, owner: "gestures") { [unowned self] in self.wake(scheduledFor: next) }
    }

    private func wake(scheduledFor time: VirtualTime) {
        if scheduledWake == time { scheduledWake = nil }
        let now = timeline.now
        let due = wakeTimes.prefix { $0 <= now }.count
        wakeTimes.removeFirst(due)
        if due > 0 { update { $0.wake(at: now) } }
        armWakeUp()
    }
}
