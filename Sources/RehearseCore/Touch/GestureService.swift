/// Recognises gestures in the touches on the bus and publishes them (`gesture.pan`,
/// `gesture.swipe`, `gesture.longPress`, `gesture.pinch`), plus a `tap` for a finger that lifts
/// within a tap's slop; the rules are ``TouchSequence``'s. A finger that comes down in a scroll view
/// (one with `scrollEnabled`) belongs to a scroll view's pan, and stops every moving scroll view
/// it is in; among nested ones, the pan drags the one its first movement chooses
/// (``NestedScrolling/panTarget(in:translation:)``), the nearest until then. A finger that lands in
/// a scroll view, and in no scroll view (enabled or not) that the first finger of a sequence under
/// way is in, begins a sequence of its own, that scroll view's, as a UIKit recogniser sees only the
/// touches in its view: two scroll views can be dragged at once. Other fingers join the sequence
/// whose pan target they are in, else the first.
public final class GestureService {
    /// One touch sequence and what the service keeps beside it.
    private struct Tracked {
        /// Which sequence it is, for as long as it lasts (its place in ``tracked`` moves as
        /// sequences before it end).
        let number: Int
        var sequence: TouchSequence
        /// The scroll views with `scrollEnabled` its first finger was in when it landed, nearest
        /// first: those its pan may drag.
        let scrollViews: [String]
        /// When it asked to be woken, soonest first.
        var wakeTimes: [VirtualTime] = []
    }

    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    /// The sequences under way, oldest first (at most one a finger down).
    private var tracked: [Tracked] = []
    /// The number the next sequence gets.
    private var nextNumber = 0
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
    private static let touchEvents = TouchPhase.allCases.compactMap { Event($0, Touch(id: 0, point: .zero)).builtin }

    /// Creates the system service and subscribes it to the touch events, each by its slot (no set
    /// of names made and looked up for every simulation).
    init(scene: Scene, bus: EventBus, timeline: Timeline) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        let handler: EventBus.Handler = { [unowned self] delivered in
            guard let (phase, touch) = delivered.event.touch else { return }
            self.handle(phase, touch)
        }
        for event in Self.touchEvents { bus.subscribe(slotOf: event, owner: "gestures", handler: handler) }
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
        guard phase != .began else { return began(touch, at: now) }
        guard let index = tracked.firstIndex(where: { $0.sequence.isDown(touch.id) }) else { return }
        update(at: index) { current in
            switch phase {
            case .began: []  // began(_:at:) took it
            case .moved: current.moved(CollectionOfOne((touch.id, touch.point)), time: now)
            case .ended: current.ended(id: touch.id, at: touch.point, time: now)
            case .cancelled: current.cancelled(id: touch.id, at: touch.point)
            }
        }
    }

    /// A finger comes down: the first of a sequence of its own, or another finger of one under way.
    private func began(_ touch: Touch, at now: VirtualTime) {
        let scrollViews = touch.target.map(enabledScrollViews(around:)) ?? []
        // The first finger down begins a sequence without its scroll views compared to anyone's.
        guard !tracked.isEmpty, scrollViews.isEmpty || !sharesNoScrollView(touch.target) else {
            return start(touch, at: now, scrollViews: scrollViews)
        }
        let index = tracked.firstIndex { isIn(touch.target, $0.sequence.panTarget) } ?? 0
        update(at: index) { current in
            current.began(id: touch.id, at: touch.point, time: now, inScrollView: isIn(touch.target, current.panTarget))
        }
    }

    /// Gives the recognisers the moves held so far, as one touch event (a sequence's own moves).
    private func releaseHeldMoves() {
        guard !heldMoves.isEmpty else { return }
        let moves = heldMoves
        let now = timeline.now
        heldMoves = []
        guard tracked.count > 1 else {
            if !tracked.isEmpty { update(at: 0) { $0.moved(moves, time: now) } }
            return
        }
        for number in tracked.map(\.number) {
            guard let index = index(of: number) else { continue }
            let own = moves.filter { tracked[index].sequence.isDown($0.id) }
            if !own.isEmpty { update(at: index) { $0.moved(own, time: now) } }
        }
    }

    /// Where the sequence numbered `number` is in ``tracked``, if it is still under way.
    private func index(of number: Int) -> Int? {
        tracked.firstIndex { $0.number == number }
    }

    /// Changes the sequence at `index`, ends it if its last finger lifted, and performs what it
    /// asks for (which may start or end sequences: what is published can inject touches).
    private func update(at index: Int, _ change: (inout TouchSequence) -> [GestureOutput]) {
        let outputs = change(&tracked[index].sequence)
        let number = tracked[index].number
        let scrollViews = tracked[index].scrollViews
        if tracked[index].sequence.isOver { tracked.remove(at: index) }
        perform(outputs, of: number, scrollViews: scrollViews)
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

    /// The scroll views with `scrollEnabled` that `node` is or lies in, nearest first.
    private func enabledScrollViews(around node: String) -> [String] {
        lineage(of: node).filter { [scene] in scene.read($0) { $0.kind == .scrollView && $0.scrollEnabled } ?? false }
    }

    /// Whether `node` lies in no scroll view (enabled or not, as the scene is now) that the first
    /// finger of a sequence under way lies in: a view enabled since that finger landed is still
    /// that sequence's, so no scroll view is ever panned by two sequences.
    private func sharesNoScrollView(_ node: String?) -> Bool {
        let around = Set(allScrollViews(around: node))
        return tracked.allSatisfy { allScrollViews(around: $0.sequence.target).allSatisfy { !around.contains($0) } }
    }

    /// The scroll views `node` is or lies in, enabled or not.
    private func allScrollViews(around node: String?) -> [String] {
        guard let node else { return [] }
        return lineage(of: node).filter { [scene] in scene.read($0) { $0.kind == .scrollView } ?? false }
    }

    private func start(_ touch: Touch, at now: VirtualTime, scrollViews: [String]) {
        let scrollView = scrollViews.first
        let stopped = scrollViews.map(stopScrolling).contains(true)
        let zooms = scrollView.flatMap { [scene] in scene.read($0, Zooming.hasPinch) } ?? false
        let (started, outputs) = TouchSequence.begin(
            id: touch.id, at: touch.point, time: now, target: touch.target, panTarget: scrollView ?? touch.target,
            pansScrollView: scrollView != nil, zooms: zooms, stoppedScrolling: stopped)
        let number = nextNumber
        nextNumber += 1
        tracked.append(Tracked(number: number, sequence: started, scrollViews: scrollViews))
        perform(outputs, of: number, scrollViews: scrollViews)
    }

    /// Publishes what sequence `number` asked for (its scroll views `scrollViews`).
    private func perform(_ outputs: [GestureOutput], of number: Int, scrollViews: [String]) {
        var chosen: String?
        for output in outputs {
            switch output {
            case .pan(var pan):
                if pan.state == .began, scrollViews.count > 1 {
                    chosen = NestedScrolling.panTarget(in: scrollViews.compactMap { scene[$0] }, translation: pan.translation)
                    if let chosen, let index = index(of: number) {
                        tracked[index].sequence.panTarget = chosen
                    }
                }
                if let chosen { pan.target = chosen }
                bus.publish(.gesturePan(pan), source: "gestures")
            case .swipe(let swipe): bus.publish(.gestureSwipe(swipe), source: "gestures")
            case .longPress(let press): bus.publish(.gestureLongPress(press), source: "gestures")
            case .pinch(let pinch): bus.publish(.gesturePinch(pinch), source: "gestures")
            case .tap(let point): emitTap(Tap(point: point))
            case .wakeUp(let time): scheduleWakeUp(of: number, at: time)
            }
        }
    }

    private func scheduleWakeUp(of number: Int, at time: VirtualTime) {
        guard let index = index(of: number) else { return }
        if !tracked[index].wakeTimes.contains(time) {
            tracked[index].wakeTimes.append(time)
            tracked[index].wakeTimes.sort()
        }
        armWakeUp()
    }

    /// Puts a wake-up on the timeline for the soonest time any sequence asked for, unless one at or before it is there.
    private func armWakeUp() {
        guard let next = tracked.compactMap(\.wakeTimes.first).min(), scheduledWake.map({ $0 > next }) ?? true else { return }
        scheduledWake = next
        timeline.schedule(at: next, owner: "gestures") { [unowned self] in self.wake(scheduledFor: next) }
    }

    private func wake(scheduledFor time: VirtualTime) {
        if scheduledWake == time { scheduledWake = nil }
        let now = timeline.now
        for number in tracked.map(\.number) {
            guard let index = index(of: number) else { continue }
            let due = tracked[index].wakeTimes.prefix { $0 <= now }.count
            tracked[index].wakeTimes.removeFirst(due)
            if due > 0 { update(at: index) { $0.wake(at: now) } }
        }
        armWakeUp()
    }
}
