/// What a plugin sees of the simulation: it can subscribe, emit, read and change the scene,
/// animate and schedule. Everything it does is done as the plugin, so a throw isolates it alone.
public final class BehaviourContext {
    /// The id of the plugin this context belongs to.
    public let pluginID: String
    private unowned let simulation: Simulation

    init(pluginID: String, simulation: Simulation) {
        self.pluginID = pluginID
        self.simulation = simulation
    }

    /// The current virtual time.
    public var now: VirtualTime { simulation.now }
    /// The scene (model values). Change animatable properties with ``set(_:for:of:)``.
    public var scene: Scene { simulation.scene }
    /// The simulated device.
    public var device: Device { simulation.device }
    /// The system keyboard's state.
    public var keyboard: KeyboardService { simulation.keyboard }
    /// The scene's constraint layout, if any; a plugin that ships a laid-out scene installs it here.
    public var layout: (any SceneLayout)? {
        get { simulation.layout }
        set { simulation.layout = newValue }
    }

    /// Receives the events `selector` picks; throwing from `handler` isolates the plugin.
    @discardableResult
    public func subscribe(_ selector: EventSelector,
                          handler: @escaping (DeliveredEvent) throws -> Void) -> SubscriptionToken? {
        simulation.bus.subscribe(selector, owner: pluginID, handler: handler)
    }

    /// Ends a subscription.
    public func unsubscribe(_ token: SubscriptionToken) {
        simulation.bus.unsubscribe(token)
    }

    /// Emits `event` as injected input is (checked, then delivered after the current event).
    /// Returns its sequence number, or `nil` when it was swallowed (an empty auto-disabled return).
    @discardableResult
    public func emit(_ event: Event) throws(InjectionError) -> UInt64? {
        try simulation.emit(event, source: pluginID)
    }

    /// Sets a model value; inside ``animate(_:changes:completion:)`` the change is animated.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws(SceneError) {
        try simulation.animator.set(value, for: property, of: id)
    }

    /// Runs `changes` as one animation transaction; `completion` runs once all its animations ended.
    public func animate(_ parameters: AnimationParameters, changes: () throws -> Void,
                        completion: ((Bool) throws -> Void)? = nil) rethrows {
        try simulation.animator.animate(parameters, owner: pluginID, changes: changes, completion: completion)
    }

    /// The value of a property on screen now.
    public func presentationValue(of property: AnimatableProperty, of id: String) -> SIMD4<Double>? {
        simulation.animator.presentationValue(of: property, of: id)
    }

    /// Runs `action` after `delay` of virtual time.
    public func schedule(after delay: VirtualTime, _ action: @escaping () throws -> Void) {
        simulation.timeline.schedule(at: simulation.now + delay, owner: pluginID, action)
    }
}
