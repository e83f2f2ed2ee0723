/// What the recognisers of a touch sequence ask for: gesture events to publish, a tap, or a call
/// back when a long press would be due.
enum GestureOutput: Equatable {
    case pan(PanGesture)
    case swipe(SwipeGesture)
    case longPress(LongPressGesture)
    case pinch(PinchGesture)
    /// The fingers made a tap at this point: published as today's `tap`.
    case tap(Point)
    /// Call ``TouchSequence/wake(at:)`` at this time (a long press or a swipe's time is up).
    case wakeUp(at: VirtualTime)
}

/// The gesture recognisers of one touch sequence, from the first finger down until the last lifts:
/// a pure state machine, fed the touches and answering what to publish.
///
/// Every sequence has a tap, a long press, a pan, a swipe and (with a second finger) a pinch
/// recogniser, each going through UIKit's states. How they exclude each other, as UIKit's do:
/// - the first to begin (or, for the swipe, to be recognised) makes the others that have not
///   begun fail (UIKit's default: recognisers do not recognise simultaneously);
/// - a finger in a scroll view is the scroll view's pan, which waits for nothing, so a swipe there
///   is a fling and no `gesture.swipe`;
/// - elsewhere the pan `require(toFail:)` the swipe: it begins only once the swipe has failed
///   (the finger took longer than ``GestureRules/maximumSwipeDuration`` to cover
///   ``GestureRules/minimumSwipeDistance``, strayed off its axis, or lifted);
/// - a tap needs one finger that never moved more than ``GestureRules/tapSlop`` and no long press
///   (the long press, once begun, makes the tap fail); a finger that stops a moving scroll view
///   taps nothing, as on iOS;
/// - a second finger makes the one-finger recognisers that have not begun fail and starts the
///   pinch; a pan or long press already under way goes on with the first finger;
/// - but in a scroll view the pan takes every finger that comes down in it, as UIKit's scroll
///   view pan does (`maximumNumberOfTouches` unlimited by default; a finger elsewhere is another
///   view's), and there is no pinch (a scroll view that cannot zoom has none): its translation is
///   the travel of its fingers' centroid, re-based where one lands or lifts so that it does not
///   jump, and it ends when the last of them lifts;
/// - a scroll view that can zoom (``Zooming/hasPinch(_:)``) has a pinch: a second finger landing
///   in it before its pan has begun makes the pan fail and starts the pinch, as outside a scroll
///   view; once its pan has begun, a finger that lands joins the pan.
///
/// The fingers that move at one instant are one touch event (UIKit's one `touchesMoved` call):
/// ``moved(_:time:)`` takes them together, so no recogniser sees one moved and another not yet.
struct TouchSequence {
    /// A recogniser's progress: UIKit's `possible`, then `began`/`changed` (``active``), then
    /// `ended`, `cancelled` or `failed` (``over``).
    enum Progress: Equatable {
        case possible, active, over
    }

    /// The node the first finger came down on.
    let target: String?
    /// The node whose pan this is: the scroll view the finger is in (of nested ones, the nearest
    /// until ``GestureService`` chooses by the first movement), or ``target``.
    var panTarget: String?
    let pansScrollView: Bool
    /// Whether the scroll view the sequence pans has a pinch recogniser.
    let zooms: Bool
    private let primary: Int
    private let start: Point
    private let startTime: VirtualTime
    private var secondary: Int?
    private var fingers: [Int: Point] = [:]
    /// The fingers a scroll view's pan follows, in id order (the first, and those that came down in the scroll view).
    private var panFingers: [Int]
    /// The pan's translation is its fingers' centroid less this: the first finger's start, moved
    /// by the centroid's jump each time a finger lands or lifts.
    private var panOrigin: Point

    private(set) var tap: Progress
    private(set) var longPress = Progress.possible
    private(set) var pan = Progress.possible
    private(set) var swipe: Progress
    private(set) var pinch = Progress.over
    private var panVelocity = VelocityTracker()
    private var pinchStartDistance = 0.0
    private var pinchScale = VelocityTracker()

    /// Starts a sequence with finger `id` down at `point`; `stoppedScrolling` says it caught a
    /// moving scroll view (it then taps nothing). Returns the sequence and what it asks for.
    static func begin(
        id: Int, at point: Point, time: VirtualTime, target: String?, panTarget: String?,
        pansScrollView: Bool, zooms: Bool, stoppedScrolling: Bool
    ) -> (TouchSequence, [GestureOutput]) {
        let sequence = TouchSequence(
            id: id, point: point, time: time, target: target, panTarget: panTarget,
            pansScrollView: pansScrollView, zooms: zooms, stoppedScrolling: stoppedScrolling)
        let swipeTimer: [GestureOutput] = pansScrollView ? [] : [.wakeUp(at: time + GestureRules.maximumSwipeDuration)]
        return (sequence, swipeTimer + [.wakeUp(at: time + GestureRules.longPressDuration)])
    }

    private init(
        id: Int, point: Point, time: VirtualTime, target: String?, panTarget: String?, pansScrollView: Bool,
        zooms: Bool, stoppedScrolling: Bool
    ) {
        self.target = target
        self.panTarget = panTarget
        self.pansScrollView = pansScrollView
        self.zooms = zooms
        primary = id
        start = point
        panOrigin = point
        panFingers = [id]
        startTime = time
        fingers[id] = point
        tap = stoppedScrolling ? .over : .possible
        swipe = pansScrollView ? .over : .possible
        panVelocity.add(.zero, at: time)
    }

    /// Whether every finger has lifted.
    var isOver: Bool { fingers.isEmpty }

    /// Whether finger `id` belongs to this sequence and is down.
    func isDown(_ id: Int) -> Bool { fingers[id] != nil }

    // MARK: Touches

    /// Another finger comes down; `inScrollView`: in the scroll view the sequence pans, whose
    /// pan then follows it too.
    mutating func began(id: Int, at point: Point, time: VirtualTime, inScrollView: Bool) -> [GestureOutput] {
        let centroid = panCentroid
        fingers[id] = point
        let pinches = zooms && inScrollView && pan != .active
        if pansScrollView, inScrollView, !pinches, let centroid {
            panFingers.append(id)
            panFingers.sort()
            rebasePan(from: centroid)
        }
        guard secondary == nil, let first = fingers[primary] else { return [] }
        secondary = id
        tap = .over
        fail(&longPress)
        fail(&swipe)
        guard !pansScrollView || pinches else { return [] }
        fail(&pan)
        guard pan != .active, longPress != .active else { return [] }
        pinchStartDistance = distance(first, point)
        guard pinchStartDistance > 0 else { return [] }
        pinch = .possible
        pinchScale.add(SIMD2(1, 0), at: time)
        return []
    }

    /// Fingers move at one instant, each once: one touch event. Fingers reported where they
    /// already were only time the velocities (UIKit reports no move that does not move).
    mutating func moved(_ moves: some Sequence<(id: Int, point: Point)>, time: VirtualTime) -> [GestureOutput] {
        // Which recognisers' fingers were reported, and which of those moved (no arrays: every
        // touch comes through here).
        var reported = (pan: false, pinch: false)
        var changed = (primary: false, pan: false, pinch: false)
        for (id, point) in moves {
            guard let previous = fingers[id] else { continue }
            let pan = isPanFinger(id)
            let pinch = isPinchFinger(id)
            reported = (reported.pan || pan, reported.pinch || pinch)
            guard previous != point else { continue }
            fingers[id] = point
            changed = (changed.primary || id == primary, changed.pan || pan, changed.pinch || pinch)
        }
        guard changed.primary || changed.pan || changed.pinch else {
            if reported.pan { panVelocity.add(panTranslation, at: time) }
            if reported.pinch, let scale = currentScale { pinchScale.add(SIMD2(scale, 0), at: time) }
            return []
        }
        var outputs = fingersMoved(primary: changed.primary, pan: changed.pan, time: time)
        if changed.pinch { outputs += pinchChanged(time: time) }
        return outputs
    }

    /// A finger lifts at `point`.
    mutating func ended(id: Int, at point: Point, time: VirtualTime) -> [GestureOutput] {
        guard fingers[id] != nil else { return [] }
        var outputs = moved(CollectionOfOne((id, point)), time: time)
        if id == primary, swipe == .possible {
            swipe = .over
            outputs += beginPanIfDue(time: time)
        }
        let endsPan = isLastPanFinger(id)
        if endsPan, pan == .active { outputs.append(.pan(panGesture(.ended))) }
        if id == primary {
            if longPress == .active {
                outputs.append(.longPress(LongPressGesture(state: .ended, target: target, location: point)))
            }
            if tap == .possible, longPress != .active { outputs.append(.tap(point)) }
            tap = .over
            end(&longPress)
        }
        if endsPan { end(&pan) }
        if isPinchFinger(id), pinch == .active { outputs.append(.pinch(pinchGesture(.ended))) }
        if isPinchFinger(id) { end(&pinch) }
        lift(id)
        return outputs
    }

    /// The system takes finger `id` away: what had begun is cancelled, the rest fails.
    mutating func cancelled(id: Int, at point: Point) -> [GestureOutput] {
        guard fingers[id] != nil else { return [] }
        var outputs: [GestureOutput] = []
        // A pan loses every finger when one is taken away, as UIKit's recognisers are cancelled.
        if isPanFinger(id) {
            if pan == .active {
                fingers[id] = point  // reported where it was taken away (no pinch is under way beside a pan)
                outputs.append(.pan(panGesture(.cancelled)))
            }
            end(&pan)
        }
        if id == primary {
            if longPress == .active {
                outputs.append(.longPress(LongPressGesture(state: .cancelled, target: target, location: point)))
            }
            tap = .over
            end(&longPress)
            end(&swipe)
        }
        if isPinchFinger(id) {
            if pinch == .active { outputs.append(.pinch(pinchGesture(.cancelled))) }
            end(&pinch)
        }
        lift(id)
        return outputs
    }

    /// Time has passed with the fingers still: the swipe fails once its time is up (and a pan
    /// waiting for it may begin); the long press begins once its time has come if its finger is
    /// still down, alone and near where it came down, and nothing else has begun.
    mutating func wake(at time: VirtualTime) -> [GestureOutput] {
        guard let point = fingers[primary] else { return [] }
        var outputs: [GestureOutput] = []
        if swipe == .possible, time - startTime >= GestureRules.maximumSwipeDuration {
            swipe = .over
            panVelocity.add(panTranslation, at: time)
            outputs += beginPanIfDue(time: time)
        }
        if time - startTime >= GestureRules.longPressDuration { outputs += beginLongPress(at: point) }
        return outputs
    }

    private mutating func beginLongPress(at point: Point) -> [GestureOutput] {
        guard longPress == .possible, pan != .active, pinch != .active, secondary == nil else { return [] }
        longPress = .active
        tap = .over
        fail(&pan)
        fail(&swipe)
        return [.longPress(LongPressGesture(state: .began, target: target, location: point))]
    }

    // MARK: Recognising

    /// The first finger's recognisers (tap, long press, swipe) when it moved, and the pan's when
    /// one of its fingers did.
    private mutating func fingersMoved(primary primaryMoved: Bool, pan panMoved: Bool, time: VirtualTime) -> [GestureOutput] {
        if panMoved { panVelocity.add(panTranslation, at: time) }
        var outputs: [GestureOutput] = []
        if primaryMoved, let point = fingers[primary] {
            let travel = SIMD2(point.x - start.x, point.y - start.y)
            let distance = (travel * travel).sum().squareRoot()
            if distance > GestureRules.tapSlop { tap = .over }
            if longPress == .possible, distance > GestureRules.longPressMovement { longPress = .over }
            if longPress == .active { return [.longPress(LongPressGesture(state: .changed, target: target, location: point))] }
            outputs += recogniseSwipe(travel, at: point, time: time)
        }
        guard panMoved else { return outputs }
        if pan == .active {
            outputs.append(.pan(panGesture(.changed)))
        } else {
            outputs += beginPanIfDue(time: time)
        }
        return outputs
    }

    /// The swipe is recognised once the finger has covered ``GestureRules/minimumSwipeDistance`` along one
    /// axis within ``GestureRules/maximumSwipeDuration``, straying at most ``GestureRules/swipeDeviation``
    /// of that off it; it fails when the time is up first or the finger strays.
    private mutating func recogniseSwipe(_ travel: SIMD2<Double>, at point: Point, time: VirtualTime) -> [GestureOutput] {
        guard swipe == .possible else { return [] }
        guard time - startTime < GestureRules.maximumSwipeDuration, secondary == nil else {
            swipe = .over
            return []
        }
        let horizontal = abs(travel.x) >= abs(travel.y)
        let along = horizontal ? abs(travel.x) : abs(travel.y)
        let across = horizontal ? abs(travel.y) : abs(travel.x)
        guard along >= GestureRules.minimumSwipeDistance else { return [] }
        swipe = .over
        guard across <= GestureRules.swipeDeviation * along else { return [] }
        let direction: SwipeDirection = horizontal ? (travel.x > 0 ? .right : .left) : (travel.y > 0 ? .down : .up)
        tap = .over
        fail(&longPress)
        fail(&pan)
        return [.swipe(SwipeGesture(state: .ended, target: target, direction: direction, location: point))]
    }

    /// The pan begins once its fingers' centroid has moved ``GestureRules/panThreshold`` and,
    /// outside a scroll view, the swipe has failed.
    private mutating func beginPanIfDue(time: VirtualTime) -> [GestureOutput] {
        guard pan == .possible, swipe != .possible, longPress != .active, secondary == nil || pansScrollView else { return [] }
        let travel = panTranslation
        guard (travel * travel).sum().squareRoot() > GestureRules.panThreshold else { return [] }
        pan = .active
        tap = .over
        fail(&longPress)
        return [.pan(panGesture(.began))]
    }

    // MARK: The pan's fingers

    /// Whether finger `id` moves the pan: one of the scroll view's, else the first.
    private func isPanFinger(_ id: Int) -> Bool { pansScrollView ? panFingers.contains(id) : id == primary }

    /// Whether finger `id` is one of the pinch's two.
    private func isPinchFinger(_ id: Int) -> Bool { id == primary || id == secondary }

    /// Whether lifting finger `id` leaves the pan without fingers.
    private func isLastPanFinger(_ id: Int) -> Bool { pansScrollView ? panFingers == [id] : id == primary }

    /// Where the pan's fingers are, taken together: their centroid (in finger order, so that the
    /// sum is the same on every run); nil once none is down.
    private var panCentroid: Point? {
        guard pansScrollView else { return fingers[primary] }
        let ids = panFingers
        guard ids.count > 1 else { return ids.first.flatMap { fingers[$0] } }
        var sum = SIMD2<Double>.zero
        for id in ids { if let point = fingers[id] { sum += SIMD2(point.x, point.y) } }
        let centroid = sum / Double(ids.count)
        return Point(x: centroid.x, y: centroid.y)
    }

    /// The pan's translation: its centroid's travel since it began, less the jumps of landings and lifts.
    private var panTranslation: SIMD2<Double> {
        let centroid = panCentroid ?? panOrigin
        return SIMD2(centroid.x - panOrigin.x, centroid.y - panOrigin.y)
    }

    /// Moves the pan's origin by the centroid's jump since `before` (a finger landed or lifted),
    /// so that the translation goes on from where it was, as UIKit's pan re-bases it.
    private mutating func rebasePan(from before: Point) {
        guard let after = panCentroid else { return }
        panOrigin = Point(x: panOrigin.x + (after.x - before.x), y: panOrigin.y + (after.y - before.y))
    }

    /// Finger `id` is no longer down.
    private mutating func lift(_ id: Int) {
        let centroid = panCentroid
        fingers[id] = nil
        guard pansScrollView, let index = panFingers.firstIndex(of: id) else { return }
        panFingers.remove(at: index)
        if let centroid { rebasePan(from: centroid) }
    }

    /// The pinch's scale now, while it is possible or under way.
    private var currentScale: Double? {
        guard pinch != .over, let secondary, let first = fingers[primary], let second = fingers[secondary] else { return nil }
        return distance(first, second) / pinchStartDistance
    }

    private mutating func pinchChanged(time: VirtualTime) -> [GestureOutput] {
        guard let scale = currentScale else { return [] }
        pinchScale.add(SIMD2(scale, 0), at: time)
        guard pinch == .active || scale != 1 else { return [] }
        let state: GestureState = pinch == .active ? .changed : .began
        pinch = .active
        return [.pinch(pinchGesture(state))]
    }

    // MARK: Payloads

    private func panGesture(_ state: GestureState) -> PanGesture {
        let velocity = panVelocity.velocity
        let translation = panTranslation
        return PanGesture(
            state: state, target: panTarget, translation: Point(x: translation.x, y: translation.y),
            velocity: Point(x: velocity.x, y: velocity.y), location: panCentroid ?? panOrigin)
    }

    private func pinchGesture(_ state: GestureState) -> PinchGesture {
        let first = fingers[primary] ?? start
        let second = secondary.flatMap { fingers[$0] } ?? first
        let scale = pinchStartDistance > 0 ? distance(first, second) / pinchStartDistance : 1
        return PinchGesture(
            state: state, target: target, scale: scale, velocity: pinchScale.velocity.x,
            center: Point(x: (first.x + second.x) / 2, y: (first.y + second.y) / 2))
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// A recogniser that has not begun fails; one that has goes on.
    private func fail(_ progress: inout Progress) {
        if progress == .possible { progress = .over }
    }

    private func end(_ progress: inout Progress) {
        progress = .over
    }
}
