import RehearseCore

/// A scenario file, loaded and validated: what to simulate and the steps to run.
public struct Scenario: Sendable {
    /// The file it came from, as given.
    public var file: String
    public var name: String
    public var device: Device
    public var animationModel: AnimationModel
    /// The nodes to build, parents before children.
    public var nodes: [(node: Node, parent: String?)]
    /// The scene's constraint sets, if it is laid out by constraints.
    public var layout: LayoutSpec?
    /// The plugins to install, in order, with their configuration overrides.
    public var plugins: [(id: String, overrides: Fields)]
    /// The remote plugins of this set-up (docs/remote-plugins.md), as they registered: those its
    /// loader started, and those registered with its session; ``plugins`` names them as it names
    /// the registry's.
    public var remotePlugins: [RemotePluginEntry] = []
    /// The scenario's own invariants (the plugins add theirs when installed).
    public var invariants: [Invariant] = []
    /// How `rehearse explore` draws actions on this set-up, if the file says.
    public var explore: ExploreSettings?
    /// The breaches of the accessibility rules the file documents as the original app's own.
    public var accessibilityDeviations: [AccessibilityDeviation] = []
    public var steps: [Step]
    /// The simulated time the steps reach at most (waits, `at:`, motion and touch streams; a step
    /// whose length is known only when it runs counted at the most it can take: a settle or a
    /// wait-until at its timeout, as are the settles of ``settlesAfterSteps``, and a
    /// `scroll-until-visible` at all its drags each followed by the longest rest).
    public var duration: VirtualTime
    /// Whether the file says `settle: auto`: a settle after every step that starts motion
    /// (``Step/Action/startsMotion``).
    public var settlesAfterSteps = false
    /// The file's text as loaded: a recording of a simulation set up from it starts from it.
    public var text = ""
}

/// One step of a scenario, with where it was written.
public struct Step: Sendable {
    public var action: Action
    public var location: SourceLocation

    /// What a step does.
    public enum Action: Sendable {
        /// Inject an event now (tap, focus, resign, type, return, motion, rotate, network, emit).
        case inject(Event)
        /// Inject an event at the node a query finds now (`tap: {text: "Log in"}`); the step fails
        /// when the query does not find exactly one.
        case injectQueried(QueriedEvent)
        /// Inject an event when the clock reaches a time (`emit` with `at`), after what is already
        /// due then.
        case schedule(Event, at: VirtualTime)
        /// Inject `count` samples spread evenly over `duration` from now, and move the clock on by it.
        case motionStream(MotionSample, count: Int, duration: VirtualTime)
        /// Inject finger events at their times from now (a touch step), and move the clock on by
        /// the step's duration.
        case touchStream(TouchStreamStep)
        /// Move the clock on by a duration.
        case wait(VirtualTime)
        /// Move the clock to an absolute time.
        case advance(to: VirtualTime)
        case keyboardShow(height: Double?, duration: Double, curve: NamedCurve)
        case keyboardHide
        case expect([Expectation])
        case expectEvent(EventExpectation)
        case expectNoEvent(EventExpectation)
        /// Change the scene at once through paths.
        case set([(path: String, value: FieldValue, location: SourceLocation)])
        case animate(PropertyAnimation)
        /// Make exactly these constraint sets active.
        case activate([String])
        case snapshot(String)
        /// Compare the drawing now with the golden picture `name` (frames within `tolerance` points, or the run's).
        case expectPicture(name: String, tolerance: Double?)
        /// Expect the node to be visible (``Visibility``), or with `visible` false not to be.
        case expectVisible(node: NodeQuery, visible: Bool)
        /// The scene breaks none of these accessibility rules now (`expect-accessible`).
        case expectAccessible([AccessibilityRule])
        /// Drag a scroll view until a node is fully visible; takes as long as that takes.
        case scrollUntilVisible(ScrollUntilVisible)
        /// Advance frame by frame until nothing moves (``Simulation/settle(within:advancing:)``),
        /// failing once `timeout` has passed.
        case settle(timeout: VirtualTime)
        /// Run the clock until the condition holds, failing once `timeout` has passed.
        case waitUntil(Condition, timeout: VirtualTime)
    }
}

extension Step.Action {
    /// The steps' clock after this step, from `now`: a wait and a motion or touch stream move it
    /// on, `at` moves it to a time, a step whose length is known only when it runs
    /// (``hasKnownDuration`` false) moves it on by the most it can take (how much less, only the
    /// run knows), and nothing else moves it.
    public func clock(after now: VirtualTime) -> VirtualTime {
        switch self {
        case .wait(let duration), .motionStream(_, _, let duration), .settle(let duration), .waitUntil(_, let duration):
            now + duration
        case .touchStream(let stream): now + stream.duration
        case .scrollUntilVisible(let scroll): now + scroll.longestDuration
        case .advance(let time): time
        case .inject, .injectQueried, .schedule, .keyboardShow, .keyboardHide, .expect, .expectEvent, .expectNoEvent, .set,
            .animate,
            .activate, .snapshot, .expectPicture, .expectVisible, .expectAccessible:
            now
        }
    }

    /// Whether the loader knows how long the step takes: false for `settle`, `wait-until` and
    /// `scroll-until-visible`, after which an `at:` (or an `emit` at a time) is refused, since the
    /// time it names could be past.
    public var hasKnownDuration: Bool {
        switch self {
        case .settle, .waitUntil, .scrollUntilVisible: false
        case .inject, .injectQueried, .schedule, .motionStream, .touchStream, .wait, .advance, .keyboardShow, .keyboardHide,
            .expect,
            .expectEvent, .expectNoEvent, .set, .animate, .activate, .snapshot, .expectPicture, .expectVisible, .expectAccessible:
            true
        }
    }

    /// Whether the step moves fingers over time (a touch step: `drag`, `fling`, `swipe`, `pinch`,
    /// `long-press`, `touches`, on points or on a node; `scroll-until-visible`), which the HTML
    /// report shows as its frames (``GestureFrame``).
    public var isGesture: Bool {
        switch self {
        case .touchStream, .scrollUntilVisible: true
        case .inject, .injectQueried, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .expect,
            .expectEvent,
            .expectNoEvent, .set, .animate, .activate, .snapshot, .expectPicture, .expectVisible, .expectAccessible, .settle,
            .waitUntil:
            false
        }
    }

    /// Whether the step can start motion, so that `settle: auto` (and `rehearse run --settle`)
    /// settles after it: what injects events (taps, typing, focus, return, resigning, rotation,
    /// the network, `emit` without `at`, motion samples), touch steps, the keyboard steps and
    /// `animate`. Not the steps that only move the clock, check, picture, or change the scene at
    /// once without an event (`set`, `activate`), nor `emit` with `at` (its event comes later).
    public var startsMotion: Bool {
        switch self {
        case .inject, .injectQueried, .motionStream, .touchStream, .keyboardShow, .keyboardHide, .animate, .scrollUntilVisible:
            true
        case .schedule, .wait, .advance, .expect, .expectEvent, .expectNoEvent, .set, .activate, .snapshot, .expectPicture,
            .settle,
            .waitUntil, .expectVisible, .expectAccessible:
            false
        }
    }
}

/// One animated property change, the `animate:` step: a `set` of one animatable path (a whole
/// property such as `box.frame`, or a component such as `box.frame.y`) inside an animation.
public struct PropertyAnimation: Sendable {
    /// `TARGET.PROPERTY` or `TARGET.PROPERTY.COMPONENT`.
    public var path: String
    public var value: FieldValue
    public var parameters: AnimationParameters
}

/// `path: expected` in an `expect:` step.
public struct Expectation: Sendable {
    public var path: String
    public var matcher: ValueMatcher
    public var location: SourceLocation
}

/// How an expected value is compared with the actual one.
public enum ValueMatcher: Sendable, CustomStringConvertible {
    /// Equal (numbers within 1e-9, mappings as subsets); `nil` expects no value (`null`).
    case equals(FieldValue?)
    /// A number within `within` of `value`.
    case approx(Double, within: Double)
    /// A number in the closed range.
    case between(Double, Double)

    /// Whether `actual` satisfies the matcher.
    public func matches(_ actual: FieldValue?) -> Bool {
        switch self {
        case .equals(nil): return actual == nil
        case .equals(let expected?): return expected.matches(actual)
        case .approx(let value, let within): return actual?.number.map { abs($0 - value) <= within } ?? false
        case .between(let low, let high): return actual?.number.map { (low...high).contains($0) } ?? false
        }
    }

    public var description: String {
        switch self {
        case .equals(nil): "null"
        case .equals(let value?): value.jsonText
        case .approx(let value, let within): "\(value) ± \(within)"
        case .between(let low, let high): "between \(low) and \(high)"
        }
    }
}

/// `expect-event:` / `expect-no-event:`: an event name, fields that must match as a subset, and
/// how many times (default: at least once).
public struct EventExpectation: Sendable {
    public var name: String
    public var fields: Fields
    public var count: ClosedRange<Int>

    /// Whether a delivered event is one this expectation counts.
    public func counts(_ event: DeliveredEvent) -> Bool {
        event.event.name == name && FieldValue.dictionary(fields).matches(.dictionary(event.event.fields))
    }
}

extension Scenario {
    /// The plugin `id` names: one this scenario's loader started, or the registry's.
    public func plugin(_ id: String, in registry: PluginRegistry) -> PluginDescriptor? {
        remotePlugins.first { $0.descriptor.id == id }?.descriptor ?? registry[id]
    }
}
