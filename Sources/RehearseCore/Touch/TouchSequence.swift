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
///   pinch; a pan or long press already under way goes on with the first finger.
struct TouchSequence {
    /// A recogniser's progress: UIKit's `possible`, then `began`/`changed` (``active``), then
    /// `ended`, `cancelled` or `failed` (``over``).
    enum Progress: Equatable {
        case possible, active, over
    }

    /// The node the first finger came down on.
    let target: String?
    /// The node whose pan this is: the scroll view the finger is in, or ``target``.
    let panTarget: String?
    let pansScrollView: Bool
    private let primary: Int
    private let start: Point
    private let startTime: VirtualTime
    private var secondary: Int?
    private var fingers: [Int: Point] = [:]

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
    static func begin(id: Int, at point: Point, time: VirtualTime, target: String?, panTarget: String?,
                      pansScrollView: Bool, stoppedScrolling: Bool) -> (TouchSequence, [GestureOutput]) {
        let sequence = TouchSequence(id: id, point: point, time: time, target: target, panTarget: panTarget,
                                     pansScrollView: pansScrollView, stoppedScrolling: stoppedScrolling)
        let swipeTimer: [GestureOutput] = pansScrollView ? [] : [.wakeUp(at: time + GestureRules.maximumSwipeDuration)]
        return (sequence, swipeTimer + [.wakeUp(at: time + GestureRules.longPressDuration)])
    }

    private init(id: Int, point: Point, time: VirtualTime, target: String?, panTarget: String?, pansScrollView: Bool,
                 stoppedScrolling: Bool) {
        self.target = target
        self.panTarget = panTarget
        self.pansScrollView = pansScrollView
        primary = id
        start = point
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

    /// Another finger comes down.
    mutating func began(id: Int, at point: Point, time: VirtualTime) -> [GestureOutput] {
        fingers[id] = point
        guard secondary == nil, let first = fingers[primary] else { return [] }
        secondary = id
        tap = .over
        fail(&longPress)
        fail(&swipe)
        fail(&pan)
        guard pan != .active, longPress != .active else { return [] }
        pinchStartDistance = distance(first, point)
        guard pinchStartDistance > 0 else { return [] }
        pinch = .possible
        pinchScale.add(SIMD2(1, 0), at: time)
        return []
    }

    /// A finger moves. One reported where it already was only times the velocities (UIKit reports
    /// no move that does not move).
    mutating func moved(id: Int, to point: Point, time: VirtualTime) -> [GestureOutput] {
        guard let previous = fingers[id] else { return [] }
        guard previous != point else {
            if id == primary { panVelocity.add(SIMD2(point.x - start.x, point.y - start.y), at: time) }
            if id == primary || id == secondary, let scale = currentScale { pinchScale.add(SIMD2(scale, 0), at: time) }
            return []
        }
        fingers[id] = point
        var outputs: [GestureOutput] = []
        if id == primary { outputs += primaryMoved(to: point, time: time) }
        if id == primary || id == secondary { outputs += pinchChanged(time: time) }
        return outputs
    }

    /// A finger lifts at `point`.
    mutating func ended(id: Int, at point: Point, time: VirtualTime) -> [GestureOutput] {
        guard fingers[id] != nil else { return [] }
        var outputs = moved(id: id, to: point, time: time)
        if id == primary {
            if swipe == .possible {
                swipe = .over
                outputs += beginPanIfDue(at: point, time: time)
            }
            if pan == .active { outputs.append(.pan(panGesture(.ended, at: point))) }
            if longPress == .active { outputs.append(.longPress(LongPressGesture(state: .ended, target: target, location: point))) }
            if tap == .possible, longPress != .active { outputs.append(.tap(point)) }
            tap = .over
            end(&pan)
            end(&longPress)
        }
        if id == primary || id == secondary, pinch == .active { outputs.append(.pinch(pinchGesture(.ended))) }
        if id == primary || id == secondary { end(&pinch) }
        fingers[id] = nil
        return outputs
    }

    /// The system takes finger `id` away: what had begun is cancelled, the rest fails.
    mutating func cancelled(id: Int, at point: Point) -> [GestureOutput] {
        guard fingers[id] != nil else { return [] }
        var outputs: [GestureOutput] = []
        if id == primary {
            if pan == .active { outputs.append(.pan(panGesture(.cancelled, at: point))) }
            if longPress == .active { outputs.append(.longPress(LongPressGesture(state: .cancelled, target: target, location: point))) }
            tap = .over
            end(&pan)
            end(&longPress)
            end(&swipe)
        }
        if id == primary || id == secondary {
            if pinch == .active { outputs.append(.pinch(pinchGesture(.cancelled))) }
            end(&pinch)
        }
        fingers[id] = nil
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
            panVelocity.add(SIMD2(point.x - start.x, point.y - start.y), at: time)
            outputs += beginPanIfDue(at: point, time: time)
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

    private mutating func primaryMoved(to point: Point, time: VirtualTime) -> [GestureOutput] {
        let travel = SIMD2(point.x - start.x, point.y - start.y)
        panVelocity.add(travel, at: time)
        let distance = (travel * travel).sum().squareRoot()
        if distance > GestureRules.tapSlop { tap = .over }
        if longPress == .possible, distance > GestureRules.longPressMovement { longPress = .over }
        if longPress == .active { return [.longPress(LongPressGesture(state: .changed, target: target, location: point))] }
        var outputs = recogniseSwipe(travel, at: point, time: time)
        if pan == .active {
            outputs.append(.pan(panGesture(.changed, at: point)))
        } else {
            outputs += beginPanIfDue(at: point, time: time)
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
        let along = horizontal ? abs(travel.x) : abs(travel.y), across = horizontal ? abs(travel.y) : abs(travel.x)
        guard along >= GestureRules.minimumSwipeDistance else { return [] }
        swipe = .over
        guard across <= GestureRules.swipeDeviation * along else { return [] }
        let direction: SwipeDirection = horizontal ? (travel.x > 0 ? .right : .left) : (travel.y > 0 ? .down : .up)
        tap = .over
        fail(&longPress)
        fail(&pan)
        return [.swipe(SwipeGesture(state: .ended, target: target, direction: direction, location: point))]
    }

    /// The pan begins once the finger has moved ``GestureRules/panThreshold`` and, outside a scroll
    /// view, the swipe has failed.
    private mutating func beginPanIfDue(at point: Point, time: VirtualTime) -> [GestureOutput] {
        guard pan == .possible, swipe != .possible, longPress != .active, secondary == nil else { return [] }
        let travel = SIMD2(point.x - start.x, point.y - start.y)
        guard (travel * travel).sum().squareRoot() > GestureRules.panThreshold else { return [] }
        pan = .active
        tap = .over
        fail(&longPress)
        return [.pan(panGesture(.began, at: point))]
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

    private func panGesture(_ state: GestureState, at point: Point) -> PanGesture {
        let velocity = panVelocity.velocity
        return PanGesture(state: state, target: panTarget, translation: Point(x: point.x - start.x, y: point.y - start.y),
                          velocity: Point(x: velocity.x, y: velocity.y), location: point)
    }

    private func pinchGesture(_ state: GestureState) -> PinchGesture {
        let first = fingers[primary] ?? start, second = secondary.flatMap { fingers[$0] } ?? first
        let scale = pinchStartDistance > 0 ? distance(first, second) / pinchStartDistance : 1
        return PinchGesture(state: state, target: target, scale: scale, velocity: pinchScale.velocity.x,
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
