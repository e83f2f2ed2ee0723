/// Something that still moves by itself, or work still to happen within the next display frame:
/// what ``Simulation/settle(within:advancing:)`` waits for. Each describes itself for a failure
/// (`list.contentOffset is still decelerating at 612 pt/s`).
///
/// What counts: property animations in flight (a delayed one from when it was started), scroll
/// views decelerating, bouncing, springing back or settling on a page, scroll views springing back
/// after a pinch (``ZoomService``), the keyboard on its way up
/// or down, and scheduled work due by the next display frame (a plugin's timer, an event injected
/// for a time, an animation's completion, a gesture recogniser's wake-up). What does not: the
/// display link's own vsyncs (they tick while anything asks for frames, a `tick` subscriber
/// included, and never stop by themselves), work due later than the next frame (a timer in 2 s is
/// waiting, not moving), and fingers held down, with whatever follows them (a dragged scroll view,
/// the keyboard of `keyboardDismissMode: interactive`): they move only when a step moves them.
public enum MovingThing: Hashable, Sendable, CustomStringConvertible {
    /// An animation of `node`'s `property`, ending at `end`.
    case animation(node: String, property: String, end: VirtualTime)
    /// A scroll view moving by itself: what it is doing (``ScrollAxisMotion/stage(at:)``) and its
    /// speed in points per second.
    case scrolling(node: String, stage: String, speed: Double)
    /// A scroll view springing back to its zoom limits after a pinch, at `scale` now.
    case zooming(node: String, scale: Double)
    /// The keyboard on its way up or down, arriving at `end`.
    case keyboard(end: VirtualTime)
    /// Work `owner` scheduled, due at `time`, by the next display frame (`injector`: an event
    /// injected for a time).
    case scheduled(owner: String, time: VirtualTime)

    public var description: String {
        switch self {
        case .animation(let node, let property, let end): "\(node).\(property) is animating until \(end) s"
        case .scrolling(let node, let stage, let speed): "\(node).contentOffset is still \(stage) at \(Int(speed.rounded())) pt/s"
        case .zooming(let node, let scale): "\(node).zoomScale is still springing back, at \(scale)"
        case .keyboard(let end): "the keyboard is moving until \(end) s"
        case .scheduled(let owner, let time):
            "\(owner == "injector" ? "an injected event" : "work of \(owner)") is due at \(time) s"
        }
    }

    /// The most things ``list(_:)`` names.
    public static let namedInAList = 5

    /// `things` for a failure: the first ``namedInAList`` described, separated by `; `, and how
    /// many more there are.
    public static func list(_ things: [MovingThing]) -> String {
        let named = things.prefix(namedInAList).map(\.description).joined(separator: "; ")
        return things.count > namedInAList ? named + "; and \(things.count - namedInAList) more" : named
    }
}

extension Simulation {
    /// How long a settle or a wait for a condition goes on, in simulated seconds, unless told
    /// otherwise (Flutter's `pumpAndSettle` waits 10 minutes of its fake clock; 10 s is longer
    /// than any UIKit motion and fails a perpetual one sooner).
    public static let defaultWaitSeconds = 10.0

    /// The time of the display's next vsync after now.
    public var nextFrameTime: VirtualTime {
        displayLink.time(ofFrame: displayLink.frame(after: now))
    }

    /// What still moves now, or is due by the next display frame (``MovingThing`` says what
    /// counts): animations in start order, then scroll views, the keyboard and scheduled work.
    public func stillMoving() -> [MovingThing] {
        animator.inFlight.map { MovingThing.animation(node: $0.node, property: $0.property.rawValue, end: $0.end) }
            + scrolling.moving.map { MovingThing.scrolling(node: $0.id, stage: $0.stage, speed: $0.speed) }
            + zooming.moving.map { MovingThing.zooming(node: $0, scale: scene[$0]?.zoomScale ?? 1) }
            + (keyboard.movingUntil.map { [MovingThing.keyboard(end: $0)] } ?? [])
            + timeline.pendingWork(dueBy: nextFrameTime).map { MovingThing.scheduled(owner: $0.owner, time: $0.time) }
    }

    /// Advances the clock one display frame at a time (the device's vsyncs) until nothing moves
    /// (``stillMoving()`` is empty), or `timeout` has passed. Already still, it returns at once and
    /// the clock stays: an injected event starts its motion as it is delivered, so there is no
    /// frame to wait for first (Flutter's `pumpAndSettle` pumps once because a widget change only
    /// schedules a frame). `advance` runs the work due up to a time and returns whether it got
    /// there (false stops the settle: a run out of budget). Returns what still moves when it
    /// stopped: empty once settled.
    public func settle(within timeout: VirtualTime, advancing advance: (VirtualTime) -> Bool) -> [MovingThing] {
        let deadline = now + timeout
        while true {
            let moving = stillMoving()
            guard !moving.isEmpty else { return [] }
            guard now < deadline, advance(min(nextFrameTime, deadline)) else { return moving }
        }
    }

    /// ``settle(within:advancing:)`` with no budget: the clock runs freely.
    public func settle(within timeout: VirtualTime) -> [MovingThing] {
        settle(within: timeout) { [unowned self] time in
            run(until: time)
            return true
        }
    }

    /// Runs the clock one piece of scheduled work at a time (a display frame, a timer, an event
    /// injected for a time, with everything each caused) until `holds` is true, checked now and
    /// after each, or `timeout` has passed; the clock stays where it held. `step` runs the next
    /// piece due by a time (moving the clock to that time when none is) and returns whether the
    /// run may go on. Returns whether it held.
    public func wait(until holds: () -> Bool, within timeout: VirtualTime, stepping step: (VirtualTime) -> Bool) -> Bool {
        let deadline = now + timeout
        while !holds() {
            guard now < deadline, step(deadline) else { return false }
        }
        return true
    }

    /// ``wait(until:within:stepping:)`` with no budget.
    public func wait(until holds: () -> Bool, within timeout: VirtualTime) -> Bool {
        wait(until: holds, within: timeout) { [unowned self] deadline in
            _ = timeline.run(until: deadline, atMost: 1)
            return true
        }
    }

    /// Whether `condition` holds now; a path it cannot read makes it false.
    public func holds(_ condition: Condition) -> Bool {
        (try? condition.evaluate(in: self).holds) ?? false
    }

    /// `condition`'s two sides as read now, for a report (``Condition/report(left:right:)``): the
    /// left path and its value, the operator with the right side; a path it cannot read, its error.
    public func sides(of condition: Condition) -> (actual: String, expected: String) {
        do {
            let (_, left, right) = try condition.evaluate(in: self)
            return condition.report(left: left, right: right)
        } catch {
            return ("\(error)", condition.description)
        }
    }
}
