import RehearseCore
import Testing

/// Tests one plugin in isolation: a scene, a virtual clock advanced by hand, events sent in, and
/// every event the plugin emits recorded in order.
///
/// ```swift
/// let harness = try PluginHarness(LoginAnimator.self) { scene in try LoginAnimator.scene?.build(scene) }
/// harness.send(.tap(Tap(target: "username")))
/// harness.advance(by: 0.3)
/// #expect(harness.number("title.presentation.frame.y") == 70)
/// ```
///
/// The harness is exhaustive by default, like TCA's `TestStore`: each emitted event must be
/// claimed with ``receive(_:_:sourceLocation:)`` before the harness goes away, or the test fails.
/// Set ``exhaustive`` to false (or call ``skipReceivedEvents()``) to opt out.
public final class PluginHarness<P: Plugin> {
    /// The simulation the plugin runs in; use it for anything the harness does not wrap.
    public let simulation: Simulation
    /// The plugin under test.
    public let plugin: P
    /// The id of the plugin under test.
    public let pluginID = P.id
    /// Whether unclaimed emitted events fail the test when the harness is released.
    public var exhaustive = true
    /// Every event delivered so far, whoever emitted it.
    public var delivered: [DeliveredEvent] { recorder.delivered }
    private var unclaimed: [DeliveredEvent] {
        get { recorder.unclaimed }
        set { recorder.unclaimed = newValue }
    }
    private let recorder = Recorder()
    private let creation: SourceLocation

    /// What the harness's subscription writes to, from the plugin's first event on (it may emit
    /// while it is being made, before the harness is).
    private final class Recorder {
        var delivered: [DeliveredEvent] = []
        var unclaimed: [DeliveredEvent] = []
    }

    /// Creates a simulation on `device`, lets `buildScene` add nodes, then installs a `P` made with
    /// `configuration`.
    public init(
        _ type: P.Type, configuration: P.Configuration = P.defaultConfiguration,
        device: Device = .iPhone5, animationModel: AnimationModel = .additive,
        scene buildScene: (Scene) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        simulation = Simulation(device: device, animationModel: animationModel)
        creation = sourceLocation
        try buildScene(simulation.scene)
        simulation.bus.subscribe(.all, owner: "harness") { [recorder] event in
            recorder.delivered.append(event)
            if event.source == P.id { recorder.unclaimed.append(event) }
        }
        plugin = try simulation.install(P.self, configuration: configuration)
    }

    deinit {
        guard exhaustive, !unclaimed.isEmpty else { return }
        let names = unclaimed.map { "\($0.event.name) \($0.event.fields.sortedDescription)" }
        Issue.record(
            "\(pluginID) emitted \(unclaimed.count) event(s) the test did not receive: \(names.joined(separator: "; "))",
            sourceLocation: creation)
    }

    /// The current virtual time.
    public var now: VirtualTime { simulation.now }

    /// Injects `event` as a user or another plugin would. An event the simulation refuses is
    /// recorded as a test failure.
    public func send(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try simulation.inject(event)
        } catch {
            Issue.record("could not send \(event.name): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Injects a plugin-defined event as a user or another plugin would.
    public func send<Sent: PluginEvent>(_ event: Sent, sourceLocation: SourceLocation = #_sourceLocation) {
        send(event.event, sourceLocation: sourceLocation)
    }

    /// The id of the node `query` finds in the scene now (``NodeQuery/resolve(in:)``), or `nil`
    /// with a test failure saying why (the nearest nodes, or the several that match).
    public func node(_ query: NodeQuery, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            return try query.resolve(in: simulation.scene)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Taps the node `query` finds now, as a scenario's `tap:` does: `.text("Log in")`,
    /// `.label("Password")`, `.kind(.button).at(1)`, `.id("save")`.
    public func tap(on query: NodeQuery, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let target = node(query, sourceLocation: sourceLocation) else { return }
        send(.tap(Tap(target: target)), sourceLocation: sourceLocation)
    }

    /// Types `text` into the node `query` finds now, as a scenario's `type:` does.
    public func type(_ text: String, into query: NodeQuery, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let target = node(query, sourceLocation: sourceLocation) else { return }
        send(.text(TextInput(target: target, text: text)), sourceLocation: sourceLocation)
    }

    /// Moves the clock on by `seconds`, running everything due on the way.
    public func advance(by seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard seconds >= 0, let duration = VirtualTime.seconds(seconds) else {
            Issue.record("cannot advance by \(seconds) s", sourceLocation: sourceLocation)
            return
        }
        simulation.advance(by: duration)
    }

    // MARK: Gestures on nodes

    /// Drags one finger from the centre of `node`'s visible part by `by` over `duration` seconds at
    /// a steady speed, lifts it, and moves the clock on by the drag (as the `drag: {on:}` step does).
    public func drag(
        on node: NodeQuery, by: Point, duration: Double = Gesture.defaultDragDuration.seconds,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let duration = gestureDuration(duration, sourceLocation) else { return }
        perform(.drag(by: by, duration: duration, hold: .zero), on: node, sourceLocation)
    }

    /// A drag from `node`'s visible centre that the finger lifts with `velocity` (points per second):
    /// a scroll view is flung with the opposite velocity (``Gesture/fling(velocity:)``).
    public func fling(on node: NodeQuery, velocity: Point, sourceLocation: SourceLocation = #_sourceLocation) {
        perform(.fling(velocity: velocity), on: node, sourceLocation)
    }

    /// A fast drag of `distance` points in `direction` from `node`'s visible centre (the `swipe: {on:}` step).
    public func swipe(
        on node: NodeQuery, direction: SwipeDirection, distance: Double = TouchStream.swipeStepDistance,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        perform(.swipe(direction, distance: distance), on: node, sourceLocation)
    }

    /// Two fingers across `node`'s visible centre moving to `scale` times their span over `duration` seconds.
    public func pinch(
        on node: NodeQuery, scale: Double, duration: Double = Gesture.defaultPinchDuration.seconds,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let duration = gestureDuration(duration, sourceLocation) else { return }
        perform(.pinch(scale: scale, duration: duration), on: node, sourceLocation)
    }

    /// One finger held on `node`'s visible centre for `duration` seconds.
    public func longPress(
        on node: NodeQuery, duration: Double = Gesture.defaultPressDuration.seconds,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let duration = gestureDuration(duration, sourceLocation) else { return }
        perform(.press(duration: duration), on: node, sourceLocation)
    }

    /// Whether the node `query` names is visible now (``Visibility``: some of it on screen, not
    /// hidden, clipped away or behind the keyboard); an id the scene does not have is not, and a
    /// query that finds no node (or several) fails the test.
    public func isVisible(_ query: NodeQuery, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let node = query.isID ? query.id : node(query, sourceLocation: sourceLocation) else { return false }
        return simulation.visibility(of: node).isVisible
    }

    /// Places `gesture` on the node `query` finds now, injects its fingers and moves the clock on
    /// by it; no such node, a node not visible, or a finger off the screen fails the test and
    /// injects nothing.
    private func perform(_ gesture: Gesture, on query: NodeQuery, _ sourceLocation: SourceLocation) {
        guard let node = node(query, sourceLocation: sourceLocation) else { return }
        do {
            try simulation.inject(
                try simulation.place(gesture, fingers: simulation.freeFingers(gesture.fingers), on: GestureAnchor(node: node)))
        } catch {
            Issue.record("could not \(gesture.name): \(error)", sourceLocation: sourceLocation)
            return
        }
        simulation.advance(by: gesture.duration)
    }

    private func gestureDuration(_ seconds: Double, _ sourceLocation: SourceLocation) -> VirtualTime? {
        guard seconds > 0, let duration = VirtualTime.seconds(seconds) else {
            Issue.record("a gesture's duration must be more than 0 seconds, found \(seconds)", sourceLocation: sourceLocation)
            return nil
        }
        return duration
    }

    /// Claims the oldest unclaimed event the plugin emitted and checks that it is `name` with
    /// `fields` as a subset (numbers within 1e-9). Returns the event, or `nil` if none was left.
    @discardableResult
    public func receive(
        _ name: String, _ fields: Fields = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DeliveredEvent? {
        guard !unclaimed.isEmpty else {
            Issue.record(
                "expected \(pluginID) to emit \(name), but it emitted nothing more",
                sourceLocation: sourceLocation)
            return nil
        }
        let event = unclaimed.removeFirst()
        if event.event.name != name || !FieldValue.dictionary(fields).matches(.dictionary(event.event.fields)) {
            Issue.record(
                "expected \(name) \(fields.sortedDescription), received \(event.event.name) \(event.event.fields.sortedDescription)",
                sourceLocation: sourceLocation)
        }
        return event
    }

    /// Claims the oldest unclaimed event the plugin emitted and checks that it is `event` (its
    /// fields as a subset, numbers within 1e-9).
    @discardableResult
    public func receive<Expected: PluginEvent>(
        _ event: Expected,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DeliveredEvent? {
        receive(Expected.name, event.fields, sourceLocation: sourceLocation)
    }

    /// Drops the emitted events not yet claimed.
    public func skipReceivedEvents() {
        unclaimed.removeAll()
    }

    /// Reads a path (`title.frame.y`, `keyboard.visible`, `PLUGIN.KEY`); an unknown path fails the test.
    public func value(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> FieldValue? {
        do {
            return try simulation.value(at: path)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Reads a numeric path; a missing or non-numeric value fails the test and gives NaN.
    public func number(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        guard let number = value(path, sourceLocation: sourceLocation)?.number else {
            Issue.record("\(path) is not a number", sourceLocation: sourceLocation)
            return .nan
        }
        return number
    }

    /// The names of the plugin's invariants broken so far, in order (each once per break).
    public var brokenInvariants: [String] {
        delivered.compactMap { EventKind.invariantFailed.payload($0.event) }.filter { $0.owner == pluginID }.map(\.name)
    }

    /// The names of all delivered events since `sequence`, in order: for checking what the system
    /// did in response (keyboard, focus, animations).
    public func deliveredNames(after sequence: UInt64 = 0) -> [String] {
        delivered.filter { $0.sequence > sequence }.map(\.event.name)
    }
}

extension Fields {
    /// `{a: 1, b: "x"}` with keys sorted, for messages.
    var sortedDescription: String { FieldValue.dictionary(self).jsonText }
}
