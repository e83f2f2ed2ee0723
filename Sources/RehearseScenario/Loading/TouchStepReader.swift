import RehearseCore

/// Reads the touch steps (`drag`, `swipe`, `fling`, `long-press`, `pinch`, `touches`) into the touch
/// streams they inject, checking at load everything they ask for: points on the screen (in the
/// orientation the steps have reached), durations above 0, a pinch's scale, a swipe's direction, a
/// raw stream's fingers against those the steps leave down, a gesture step's fingers against the
/// most the screen takes beside those, and ``ScenarioLimits/touchEvents`` over all of them. The
/// gesture steps use fingers no `touches:` stream has left down. A gesture aimed at a node (`on:`)
/// is written relative to where it starts, found when it runs.
final class TouchStepReader {
    /// What a touch step is read against.
    struct Screen {
        /// The screen's size in the orientation the steps have reached.
        let size: Size
        /// The display's refresh rate: a finger moves once a frame.
        let rate: Int
        let scene: Scene
        /// Reads a node argument of the step named second (``StepParser/nodeQuery(_:of:)``).
        let query: (YAMLValue, String) throws(ScenarioError) -> NodeQuery

        /// Throws unless `point` is on the screen, its edges included: "`what` (x, y) is off the
        /// W × H screen`why`".
        func check(_ point: Point, at value: YAMLValue, _ what: String, why: String = "") throws(ScenarioError) {
            guard (0...size.width).contains(point.x), (0...size.height).contains(point.y) else {
                throw value.error(
                    "\(what) (\(point.x.shortDescription), \(point.y.shortDescription)) is off the "
                        + "\(size.width.shortDescription) × \(size.height.shortDescription) screen\(why)")
            }
        }
    }

    /// The fingers the steps so far leave down.
    private var fingersDown: Set<Int> = []
    /// The touch events the steps so far write.
    private var eventCount = 0.0

    func drag(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        if try aimsAtANode(value) {
            let entries = try value.mapping("drag", allowed: ScenarioSyntax.dragOn)
            guard let byValue = entries["by"] else { throw value.error("drag needs on: NODE and by: [dx, dy]") }
            let by = try point(byValue, "by", of: "drag")
            let duration = try positiveDuration(entries, of: "drag", in: value, otherwise: Gesture.defaultDragDuration)
            return try gesture(
                .drag(by: by, duration: duration, hold: try hold(entries)), entries, of: "drag", in: value, on: screen)
        }
        let entries = try value.mapping("drag", allowed: ScenarioSyntax.drag)
        let from = try point(entries, "from", of: "drag", in: value, on: screen)
        let to = try point(entries, "to", of: "drag", in: value, on: screen)
        let duration = try positiveDuration(entries, of: "drag", in: value)
        let hold = try hold(entries)
        try count(fingers: 1, duration: duration, rate: screen.rate, at: value)
        let events = TouchStream.drag(id: freeFinger(), from: from, to: to, duration: duration, hold: hold, rate: screen.rate)
        return TouchStreamStep(events: events, duration: duration + hold)
    }

    func swipe(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        let aimed = try aimsAtANode(value)
        let entries = try value.mapping("swipe", allowed: aimed ? ScenarioSyntax.swipeOn : ScenarioSyntax.swipe)
        let from = aimed ? nil : try point(entries, "from", of: "swipe", in: value, on: screen)
        guard let directionValue = entries["direction"] else {
            throw value.error(aimed ? "swipe needs on: NODE and direction" : "swipe needs from and direction")
        }
        let direction = try directionValue.choice("direction", as: SwipeDirection.self)
        let distanceValue = entries["distance"]
        let distance =
            try distanceValue.map { distance throws(ScenarioError) in try distance.length("distance") }
            ?? TouchStream.swipeStepDistance
        guard distance > 0 else { throw (distanceValue ?? value).error("distance must be more than 0 points, found 0") }
        guard let from else {
            return try gesture(.swipe(direction, distance: distance), entries, of: "swipe", in: value, on: screen)
        }
        let to = Point(x: from.x + direction.unit.x * distance, y: from.y + direction.unit.y * distance)
        try screen.check(to, at: distanceValue ?? directionValue, "the swipe's end")
        try count(fingers: 1, duration: TouchStream.swipeStepDuration, rate: screen.rate, at: value)
        let events = TouchStream.drag(
            id: freeFinger(), from: from, to: to, duration: TouchStream.swipeStepDuration, rate: screen.rate)
        return TouchStreamStep(events: events, duration: TouchStream.swipeStepDuration)
    }

    /// `fling: {on: NODE, at?, velocity: [vx, vy]}`: a drag the finger lifts with `velocity`.
    func fling(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        let entries = try value.mapping("fling", allowed: ScenarioSyntax.fling)
        guard entries["on"] != nil, let velocityValue = entries["velocity"] else {
            throw value.error("fling needs on: NODE and velocity: [vx, vy] (points per second)")
        }
        let velocity = try point(velocityValue, "velocity", of: "fling")
        let limit = ScenarioLimits.gestureVelocity
        guard abs(velocity.x) <= limit, abs(velocity.y) <= limit, velocity != .zero else {
            throw velocityValue.error(
                "velocity must be at most \(Int(limit)) points per second on an axis and not [0, 0], "
                    + "found [\(velocity.x.shortDescription), \(velocity.y.shortDescription)]")
        }
        return try gesture(.fling(velocity: velocity), entries, of: "fling", in: value, on: screen)
    }

    func longPress(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        if case .scalar = value.node {
            return try gesture(
                .press(duration: Gesture.defaultPressDuration), ["on": value], of: "long-press", in: value, on: screen)
        }
        if try aimsAtANode(value) {
            let entries = try value.mapping("long-press", allowed: ScenarioSyntax.longPressOn)
            let duration = try positiveDuration(entries, of: "long-press", in: value, otherwise: Gesture.defaultPressDuration)
            return try gesture(.press(duration: duration), entries, of: "long-press", in: value, on: screen)
        }
        let entries = try value.mapping("long-press", allowed: ScenarioSyntax.longPress)
        let duration = try positiveDuration(entries, of: "long-press", in: value, otherwise: Gesture.defaultPressDuration)
        switch (entries["at"], entries["target"]) {
        case (_?, _?), (nil, nil):
            throw value.error("long-press needs a node, or either at: [x, y] or target: NODE")
        case (_?, nil):
            try count(fingers: 1, duration: .zero, rate: screen.rate, at: value)
            let point = try point(entries, "at", of: "long-press", in: value, on: screen)
            return TouchStreamStep(events: TouchStream.press(id: freeFinger(), at: point, duration: duration), duration: duration)
        case (nil, let targetValue?):
            return try gesture(.press(duration: duration), ["on": targetValue], of: "long-press", in: value, on: screen)
        }
    }

    func pinch(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        let aimed = try aimsAtANode(value)
        let entries = try value.mapping("pinch", allowed: aimed ? ScenarioSyntax.pinchOn : ScenarioSyntax.pinch)
        let center = aimed ? nil : try point(entries, "center", of: "pinch", in: value, on: screen)
        guard let scaleValue = entries["scale"] else {
            throw value.error(aimed ? "pinch needs on: NODE and scale" : "pinch needs center, scale and duration")
        }
        let scale = try scaleValue.number("scale")
        guard scale > 0, scale <= ScenarioLimits.pinchScale else {
            throw scaleValue.error(
                "scale must be more than 0 and at most \(ScenarioLimits.pinchScale.shortDescription), "
                    + "found \(scale.shortDescription)")
        }
        guard let center else {
            let duration = try positiveDuration(entries, of: "pinch", in: value, otherwise: Gesture.defaultPinchDuration)
            return try gesture(.pinch(scale: scale, duration: duration), entries, of: "pinch", in: value, on: screen)
        }
        let duration = try positiveDuration(entries, of: "pinch", in: value)
        let fingers = TouchStream.pinchFingers(center: center, scale: scale)
        for finger in [fingers.left.start, fingers.right.start, fingers.left.end, fingers.right.end] {
            try screen.check(
                finger, at: scaleValue, "a finger at",
                why: " (a pinch's fingers are \(TouchStream.pinchSpan.shortDescription) points apart at scale 1)")
        }
        try count(fingers: 2, duration: duration, rate: screen.rate, at: value)
        let first = freeFinger()
        let events = TouchStream.pinch(
            ids: (first, freeFinger(after: first)), center: center, scale: scale,
            duration: duration, rate: screen.rate)
        return TouchStreamStep(events: events, duration: duration)
    }

    // MARK: Gestures aimed at a node

    /// Whether a gesture step's mapping has `on:` (it aims at a node) rather than screen points.
    private func aimsAtANode(_ value: YAMLValue) throws(ScenarioError) -> Bool {
        guard case .mapping = value.node else { return false }
        return try value.mapping("a touch step").contains { $0.key == "on" }
    }

    /// `gesture` aimed at `entries["on"]` (at its visible centre, or `entries["at"]` in its own
    /// coordinates, when the step runs), on fingers the streams so far leave free. Its path must
    /// fit the screen at all; whether it fits where the node is, the run checks.
    private func gesture(
        _ gesture: Gesture, _ entries: [String: YAMLValue], of step: String, in value: YAMLValue,
        on screen: Screen
    ) throws(ScenarioError) -> TouchStreamStep {
        guard let onValue = entries["on"] else { throw value.error("\(step) needs on: NODE") }
        let node = try screen.query(onValue, step)
        let at = try entries["at"].map { at throws(ScenarioError) in
            let point = try point(at, "at", of: step)
            try screen.check(point, at: at, "at", why: " (at is a point of the node, from its top left corner)")
            return point
        }
        try count(fingers: gesture.fingers, duration: gesture.duration, rate: screen.rate, at: value)
        var ids = [freeFinger()]
        if gesture.fingers == 2 { ids.append(freeFinger(after: ids[0])) }
        let events = gesture.touches(from: .zero, ids: ids, rate: screen.rate)
        let xs = events.map(\.touch.point.x)
        let ys = events.map(\.touch.point.y)
        let span = Size(width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
        guard span.width <= screen.size.width, span.height <= screen.size.height else {
            throw value.error(
                "this \(step)'s fingers span \(span.width.shortDescription) × \(span.height.shortDescription) points, "
                    + "more than the \(screen.size.width.shortDescription) × \(screen.size.height.shortDescription) screen")
        }
        return TouchStreamStep(
            events: events, duration: gesture.duration,
            aim: TouchStreamStep.Aim(gesture: gesture, node: node, at: at, fingers: ids))
    }

    /// `touches:`: a list of `{id, phase, point, time}` (time in seconds from the step's start, in order).
    func stream(_ value: YAMLValue, on screen: Screen) throws(ScenarioError) -> TouchStreamStep {
        let items = try value.sequence("touches")
        guard !items.isEmpty else { throw value.error("touches needs at least one {id, phase, point, time}") }
        var down = fingersDown
        var events: [TimedTouch] = []
        for item in items {
            let entries = try item.mapping("a touch", allowed: ScenarioSyntax.touch)
            guard let idValue = entries["id"], let phaseValue = entries["phase"], let timeValue = entries["time"] else {
                throw item.error("a touch needs id, phase, point and time")
            }
            let number = try idValue.number("id")
            guard let id = Int(exactly: number), ScenarioLimits.touchIDs.contains(id) else {
                throw idValue.error(
                    "id must be a whole number from \(ScenarioLimits.touchIDs.lowerBound) to "
                        + "\(ScenarioLimits.touchIDs.upperBound), found \(number.shortDescription)")
            }
            let phase = try phaseValue.choice("phase", as: TouchPhase.self)
            let point = try point(entries, "point", of: "a touch", in: item, on: screen)
            let time = try timeValue.seconds("time")
            if let last = events.last, time < last.offset {
                throw timeValue.error("time \(time) s is before the touch before it, at \(last.offset) s")
            }
            try fit(phase, id, among: &down, at: phaseValue)
            events.append(TimedTouch(offset: time, phase: phase, touch: Touch(id: id, point: point)))
        }
        try count(events: Double(events.count), at: value)
        fingersDown = down
        return TouchStreamStep(events: events, duration: events.last?.offset ?? .zero)
    }

    // MARK: Checks

    private func fit(_ phase: TouchPhase, _ id: Int, among down: inout Set<Int>, at value: YAMLValue) throws(ScenarioError) {
        switch phase {
        case .began:
            guard !down.contains(id) else { throw value.error("touch \(id) is already down") }
            guard down.count < GestureRules.maximumTouches else {
                throw value.error("\(GestureRules.maximumTouches) touches are already down, the most the screen takes")
            }
            down.insert(id)
        case .moved:
            guard down.contains(id) else { throw value.error("touch \(id) is not down; a touch begins with phase: began") }
        case .ended, .cancelled:
            guard down.remove(id) != nil else { throw value.error("touch \(id) is not down; a touch begins with phase: began") }
        }
    }

    private func point(
        _ entries: [String: YAMLValue], _ key: String, of step: String, in value: YAMLValue,
        on screen: Screen
    ) throws(ScenarioError) -> Point {
        guard let pointValue = entries[key] else {
            throw value.error("\(step) needs \(key): [x, y]")
        }
        let point = try point(pointValue, key, of: step)
        try screen.check(point, at: pointValue, key)
        return point
    }

    /// `[x, y]` or `{x, y}`, finite numbers.
    private func point(_ pointValue: YAMLValue, _ key: String, of step: String) throws(ScenarioError) -> Point {
        guard let field = try pointValue.fieldValue(key) else { throw pointValue.error("\(key) must be [x, y], found null") }
        do throws(FieldError) {
            return try Point(field: field, path: key)
        } catch {
            throw ScenarioError("\(step): \(error)", at: pointValue.location)
        }
    }

    /// `duration:`, more than 0 seconds; `otherwise` when there is none, if the step has a default.
    private func positiveDuration(
        _ entries: [String: YAMLValue], of step: String, in value: YAMLValue,
        otherwise: VirtualTime? = nil
    ) throws(ScenarioError) -> VirtualTime {
        guard let durationValue = entries["duration"] else {
            guard let otherwise else { throw value.error("\(step) needs duration (seconds, more than 0)") }
            return otherwise
        }
        let duration = try durationValue.seconds("duration")
        guard duration > .zero else { throw durationValue.error("duration must be more than 0 seconds, found 0") }
        return duration
    }

    /// A drag's `hold:`, seconds the finger rests before it lifts (default 0).
    private func hold(_ entries: [String: YAMLValue]) throws(ScenarioError) -> VirtualTime {
        try entries["hold"].map { hold throws(ScenarioError) in try hold.seconds("hold") } ?? .zero
    }

    /// Throws unless the screen takes `fingers` more beside those the `touches:` steps leave down,
    /// then counts the events of a gesture step.
    private func count(fingers: Int, duration: VirtualTime, rate: Int, at value: YAMLValue) throws(ScenarioError) {
        guard fingersDown.count + fingers <= GestureRules.maximumTouches else {
            throw value.error(
                "\(fingersDown.count) touches are already down, the most the screen takes is "
                    + "\(GestureRules.maximumTouches), and this step needs \(fingers) more; lift some with phase: ended")
        }
        try count(events: TouchStream.eventCount(fingers: fingers, duration: duration, rate: rate), at: value)
    }

    private func count(events: Double, at value: YAMLValue) throws(ScenarioError) {
        guard eventCount + events <= Double(ScenarioLimits.touchEvents) else {
            throw value.error(
                "this step writes \(events.shortDescription) touch events (one a display frame a finger); "
                    + "the touch steps of a scenario write at most \(ScenarioLimits.touchEvents)")
        }
        eventCount += events
    }

    /// The lowest finger id above `after` that no stream has left down.
    private func freeFinger(after: Int = -1) -> Int {
        var id = after + 1
        while fingersDown.contains(id) { id += 1 }
        return id
    }
}
