/// What a plugin sees of the simulation, given to it when it is made: it can subscribe, emit, read
/// and change the scene, animate and schedule. Everything it does is done as the plugin, so a
/// throw isolates it alone.
public final class PluginContext {
    /// The id of the plugin this context belongs to.
    public let pluginID: String
    /// The simulation, unowned (it owns the plugin); usable from inlinable code, so that
    /// a typed subscription (`on(.tick)`) is specialized in the plugin's module.
    @usableFromInline unowned let simulation: Simulation
    /// Held directly (none of them holds a plugin), so reads on every frame skip the unowned
    /// reference's checks.
    private let animator: Animator
    private let timeline: Timeline

    init(pluginID: String, simulation: Simulation) {
        self.pluginID = pluginID
        self.simulation = simulation
        animator = simulation.animator
        timeline = simulation.timeline
        scene = simulation.scene
    }

    /// The current virtual time.
    public var now: VirtualTime { timeline.now }
    /// How many items wait on the clock, the simulation's and every plugin's.
    public var pendingCount: Int { timeline.pendingCount }
    /// The scene (model values). Change animatable properties with ``set(_:for:of:)-(_,_,String)``.
    public let scene: Scene
    /// The simulated device.
    public var device: Device { simulation.device }
    /// The system keyboard's state.
    public var keyboard: KeyboardService { simulation.keyboard }
    /// While the set-up is built again and again (an exploration's), what this set-up's plugins
    /// kept the first time: a plugin whose install is costly keeps it under its id (``SetupMemo``).
    public var setupMemo: SetupMemo? { simulation.setupMemo }
    /// The scene's constraint layout, if any; a plugin that ships a laid-out scene installs it here.
    public var layout: (any SceneLayout)? {
        get { simulation.layout }
        set { simulation.layout = newValue }
    }

    // MARK: Subscribing

    /// Receives every built-in event of `kind`, typed: `context.on(.tap) { tap in ... }`.
    /// Throwing from `handler` isolates the plugin. Inlinable, so that the plugin's module
    /// specializes it for the payload: a delivery then looks no generic type up.
    @inlinable @discardableResult
    public func on<Payload>(
        _ kind: EventKind<Payload>,
        _ handler: @escaping (Payload) throws -> Void
    ) -> SubscriptionToken? {
        simulation.bus.subscribe(kind, owner: pluginID, handler: handler)
    }

    /// Receives every event of the plugin-defined type `type`, read from its fields. The type is
    /// its own declaration, so it joins the vocabulary if no plugin listed it.
    @discardableResult
    public func on<Received: PluginEvent>(
        _ type: Received.Type,
        _ handler: @escaping (Received) throws -> Void
    ) throws -> SubscriptionToken? {
        try simulation.declare([type], by: pluginID)
        return simulation.bus.subscribe(toCustomEventNamed: type.name, owner: pluginID) { delivered in
            try handler(Received(fields: delivered.event.fields))
        }
    }

    /// Receives every event named `name`, untyped: for an event whose type the plugin cannot
    /// import. The name must be built in or declared by a plugin of this simulation; a name that is
    /// not is refused (with the nearest known name), so a misspelt subscription fails the install.
    @discardableResult
    public func on(
        named name: String,
        _ handler: @escaping (DeliveredEvent) throws -> Void
    ) throws(PluginInstallError) -> SubscriptionToken? {
        guard simulation.declaredEvent(named: name) != nil else {
            throw PluginInstallError.unknownEvent(
                plugin: pluginID, name: name,
                known: simulation.eventVocabulary.map(\.name))
        }
        return simulation.bus.subscribe(toEventNamed: name, owner: pluginID, handler: handler)
    }

    /// Ends a subscription.
    public func unsubscribe(_ token: SubscriptionToken) {
        simulation.bus.unsubscribe(token)
    }

    // MARK: Emitting

    /// Emits a built-in event as injected input is: read back from its fields as an injected
    /// event is read (so its payload's limits hold, however it was built), checked, then delivered
    /// after the current event. Returns its sequence number, or `nil` when it was swallowed (an
    /// empty auto-disabled return). Throws, emitting nothing, for an event an injection would refuse.
    @discardableResult
    public func emit(_ event: Event) throws(InjectionError) -> UInt64? {
        if let builtin = event.builtin {
            do { _ = try builtin.event(from: event.fields) } catch { throw .invalidFields(name: event.name, error) }
        }
        return try simulation.emit(event, source: pluginID)
    }

    /// Emits a plugin-defined event; its type joins the vocabulary if no plugin listed it.
    @discardableResult
    public func emit<Emitted: PluginEvent>(_ event: Emitted) throws -> UInt64? {
        try simulation.declare([Emitted.self], by: pluginID)
        return try simulation.emit(event.event, source: pluginID)
    }

    /// Emits the event `name` with `fields`, untyped: for an event whose type the plugin cannot
    /// import (a remote plugin's). A plugin-defined event's fields must be the ones it declares
    /// (the simulation checks them, as it checks every event), and travel as a typed event's
    /// encoded fields do (a whole number is an integer), so that the trace is the one a typed
    /// event gives.
    @discardableResult
    public func emit(named name: String, fields given: Fields) throws -> UInt64? {
        let fields = try given.mapValues(FieldValueEncoder.normalised)
        let event: Event
        do { event = try Event(name: name, fields: fields) } catch { throw InjectionError.invalidFields(name: name, error) }
        return try simulation.emit(event, source: pluginID)
    }

    // MARK: The scene

    /// Changes the scene through a path, as a scenario's `set:` step does (``Simulation/setValue(_:at:)``):
    /// inside ``animate(_:changes:completion:)`` animatable changes are animated.
    public func setValue(_ value: FieldValue, at path: String) throws(PathError) {
        try simulation.setValue(value, at: path)
    }

    /// Whether the user is moving the scroll view `scrollView`: a finger drags it, or it is still
    /// moving by itself after one let go of it.
    public func isScrolling(_ scrollView: String) -> Bool {
        simulation.scrolling.isDragging(scrollView) || simulation.scrolling.isDecelerating(scrollView)
    }

    /// Changes where the scroll view `scrollView`, released just now, comes to rest: call it while
    /// `scroll.willEndDragging` is delivered, as a delegate sets `targetContentOffset` in
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`. Returns false, changing
    /// nothing, at any other moment (see ``ScrollViewService/setTargetContentOffset(_:of:)``).
    @discardableResult
    public func setTargetContentOffset(_ offset: Point, of scrollView: String) -> Bool {
        simulation.scrolling.setTargetContentOffset(offset, of: scrollView)
    }

    /// `path` resolved once for ``value(of:)-(PathReader)`` (``Simulation/reader(for:)``).
    func reader(for path: ValuePath) -> PathReader {
        simulation.reader(for: path)
    }

    /// The value at the reader's path now, as ``value(at:)`` reads it.
    func value(of reader: PathReader) throws(PathError) -> FieldValue? {
        try simulation.value(of: reader)
    }

    /// A handle to the node with `id`, resolved once, for reads on every frame; throws if the
    /// scene has no such node.
    public func node(_ id: String) throws(SceneError) -> NodeHandle {
        guard let handle = scene.handle(id) else { throw SceneError.unknownNode(id) }
        return handle
    }

    /// Sets a model value; inside ``animate(_:changes:completion:)`` the change is animated.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws(SceneError) {
        try animator.set(value, for: property, of: id)
    }

    /// Sets a model value through a handle; inside ``animate(_:changes:completion:)`` the change is animated.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of node: NodeHandle) throws(SceneError) {
        try animator.set(value, for: property, of: node)
    }

    /// The value of a property on screen now; `nil` for a node the scene does not have.
    public func presentationValue(of property: AnimatableProperty, of id: String) -> SIMD4<Double>? {
        animator.presentationValue(of: property, of: id)
    }

    /// The value of a property on screen now, through a handle (no id lookup).
    public func presentationValue(of property: AnimatableProperty, of node: NodeHandle) -> SIMD4<Double>? {
        animator.presentationValue(of: property, of: node)
    }

    /// A handle to `property` of `node`, for reads on every frame with ``value(of:)-(PropertyHandle)``:
    /// its presentation value (what is on screen now, mid-animation) or its model value.
    public func property(_ property: AnimatableProperty, of node: NodeHandle, presentation: Bool) -> PropertyHandle {
        scene.propertyHandle(property, of: node, presentation: presentation)
    }

    /// A handle to the node property `path` names, `NODE[.presentation].PROPERTY[.PART]`
    /// (`box.presentation.frame.y`), resolved once for reads on every frame. Throws for a path that
    /// reads nothing now, and for one that reads something other than a node's animatable property.
    public func property(at path: String) throws(PathError) -> PropertyHandle {
        try simulation.propertyHandle(at: ValuePath(path))
    }

    /// The whole value a handle reads now (a frame's x, y, width and height). Throws
    /// ``SceneError/removedNode(_:)`` while the scene has no node with its node's id.
    public func value(of handle: PropertyHandle) throws(SceneError) -> SIMD4<Double> {
        guard let value = animator.value(of: handle) else { throw removed(handle) }
        return value
    }

    /// The error for a handle whose node is gone, out of line: a read copies nothing for it.
    @inline(never)
    private func removed(_ handle: PropertyHandle) -> SceneError {
        .removedNode(scene.id(of: handle))
    }

    /// The number a handle reads now: the part its path named (`frame.y`, `frame.maxX`), or the
    /// first component of a whole property (`alpha`). Throws as ``value(of:)-(PropertyHandle)`` does.
    public func number(of handle: PropertyHandle) throws(SceneError) -> Double {
        try handle.part.number(of: value(of: handle))
    }

    // MARK: Invariants

    /// Declares an invariant in the scenario file's form, checked after every delivered event
    /// while the plugin is installed; a path that reads nothing now fails the install.
    public func invariant(_ invariant: Invariant) throws(PathError) {
        for path in invariant.paths { _ = try simulation.value(at: path) }
        simulation.addInvariant(invariant, owner: pluginID)
    }

    /// Declares an invariant that `test` computes (for what a comparison of paths cannot say, such
    /// as "the focused field is above the keyboard"), checked after every delivered event.
    public func invariant(_ name: String, _ test: @escaping () -> InvariantOutcome) {
        simulation.addInvariant(named: name, owner: pluginID, evaluate: test)
    }

    // MARK: Time

    /// Runs `changes` as one animation transaction; `completion` runs once all its animations ended.
    public func animate(
        _ parameters: AnimationParameters, changes: () throws -> Void,
        completion: ((Bool) throws -> Void)? = nil
    ) rethrows {
        try animator.animate(parameters, owner: pluginID, changes: changes, completion: completion)
    }

    /// Runs `action` after `delay` of virtual time.
    public func schedule(after delay: VirtualTime, _ action: @escaping () throws -> Void) {
        timeline.schedule(at: timeline.now + delay, owner: pluginID, action)
    }
}
