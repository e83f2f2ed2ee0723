/// One simulated phone: the clock, the scheduler, the event bus, the scene, the system services
/// (keyboard, responders, display link) and the plugins. The scenario runner, the D-Bus bridge and
/// the test harness all drive this one type.
public final class Simulation {
    /// The simulated device.
    public let device: Device
    /// How the clock relates to the wall clock; drivers read it, the simulation itself does not pace.
    public var mode: ClockMode
    public let bus: EventBus
    public let timeline: Timeline
    public let scene: Scene
    public let animator: Animator
    public let keyboard: KeyboardService
    public let responders: ResponderService
    public let displayLink: DisplayLink

    /// The constraint layout of the scene, if it has one.
    public var layout: (any SceneLayout)?

    private var plugins: [(id: String, instance: any BehaviourInstance)] = []
    private var vocabulary: [String: EventDescription]

    /// Creates a simulation at time zero with an empty scene filling `device`'s screen.
    public init(device: Device = .iPhone5, animationModel: AnimationModel = .additive, mode: ClockMode = .virtual) {
        self.device = device
        self.mode = mode
        let bus = EventBus()
        let timeline = Timeline(bus: bus)
        let scene = Scene(portraitSize: device.screen)
        let animator = Animator(scene: scene, bus: bus, timeline: timeline, model: animationModel)
        self.bus = bus
        self.timeline = timeline
        self.scene = scene
        self.animator = animator
        responders = ResponderService(scene: scene, bus: bus)
        let keyboard = KeyboardService(scene: scene, bus: bus, timeline: timeline, device: device)
        self.keyboard = keyboard
        let tickSlot = Event.tick(Tick(timestamp: .zero, targetTimestamp: .zero)).builtinSlot ?? 0
        displayLink = DisplayLink(refreshRate: device.refreshRate, bus: bus, timeline: timeline) {
            animator.runningCount > 0 || keyboard.isMoving || bus.subscriberCount(forSlot: tickSlot) > 0
        }
        vocabulary = Dictionary(uniqueKeysWithValues: EventDescription.builtin.map { ($0.name, $0) })
        // The display link holds what it asks for frames; the way back is weak, so nothing cycles.
        animator.onAnimationStarted = { [weak displayLink] in displayLink?.wake() }
        keyboard.onMovementStarted = { [weak displayLink] in displayLink?.wake() }
        bus.onSubscriptionsChanged = { [weak displayLink] in displayLink?.wake() }
    }

    /// The current virtual time.
    public var now: VirtualTime { timeline.now }

    // MARK: Plugins

    /// The ids of the installed plugins, in install order.
    public var pluginIDs: [String] { plugins.map(\.id) }

    /// The installed plugin with `id`.
    public func plugin(_ id: String) -> (any BehaviourInstance)? {
        plugins.first { $0.id == id }?.instance
    }

    /// Makes and installs a registered plugin with `overrides` on top of its defaults.
    public func install(_ descriptor: BehaviourDescriptor, overrides: Fields = [:]) throws {
        try install(descriptor.makeInstance(overrides: overrides), id: descriptor.id, events: descriptor.events)
    }

    /// Installs a plugin instance under `id`, adding `events` to the vocabulary. If attaching
    /// throws, the plugin's subscriptions are dropped and the error is rethrown.
    public func install(_ instance: any BehaviourInstance, id: String, events: [EventDescription] = []) throws {
        guard plugin(id) == nil else { throw PluginInstallError.duplicate(id) }
        do {
            try instance.attach(to: BehaviourContext(pluginID: id, simulation: self))
        } catch {
            bus.isolate(id, because: error)
            throw error
        }
        plugins.append((id, instance))
        for description in events { vocabulary[description.name] = description }
    }

    /// Every event name this simulation accepts: the built-in ones and the installed plugins'.
    public var eventVocabulary: [EventDescription] {
        vocabulary.values.sorted { $0.name < $1.name }
    }

    // MARK: Events

    /// Checks `event`, applies what it does to the scene on the way in (hit-testing a tap, typing
    /// text, rotating), and publishes it. Returns its sequence number, or `nil` when the event was
    /// swallowed (the return key of an empty field that auto-disables it). Throws, changing
    /// nothing, for an unknown event name or a target the scene does not have.
    @discardableResult
    public func inject(_ event: Event) throws(InjectionError) -> UInt64? {
        try emit(event, source: "injected")
    }

    /// ``inject(_:)`` on behalf of `source` (a plugin emitting through its context).
    func emit(_ event: Event, source: String) throws(InjectionError) -> UInt64? {
        try check(event)
        guard let prepared = prepare(event) else { return nil }
        return bus.publish(prepared, source: source)
    }

    /// Checks `event` now and injects it at `time`.
    public func inject(_ event: Event, at time: VirtualTime) throws(InjectionError) {
        guard time >= now else {
            throw InjectionError.invalidTime("time \(time) s is before the current time \(now) s")
        }
        try check(event)
        timeline.schedule(at: time, owner: "injector") { [unowned self] in
            _ = try self.inject(event)
        }
    }

    /// Runs everything due up to `time` and moves the clock there.
    public func run(until time: VirtualTime) {
        timeline.run(until: time)
    }

    /// Runs everything due in the next `duration` and moves the clock on by it.
    public func advance(by duration: VirtualTime) {
        timeline.run(until: now + duration)
    }

    /// Checks that `event` could be injected now: a known name, and targets the scene has.
    public func check(_ event: Event) throws(InjectionError) {
        func node(_ id: String?, field: String, textInput: Bool = false) throws(InjectionError) {
            guard let id else { return }
            guard let node = scene[id] else { throw InjectionError.unknownNode(field: field, id: id) }
            if textInput, !node.kind.isTextInput { throw InjectionError.notATextInput(field: field, id: id) }
        }
        switch event {
        case .focus(let request): try node(request.target, field: "target", textInput: true)
        case .returnKey(let request): try node(request.target, field: "target", textInput: true)
        case .text(let input): try node(input.target, field: "target", textInput: true)
        case .resign(let request): try node(request.target, field: "target")
        case .tap(let tap): try node(tap.target, field: "target")
        case .custom(let name, _):
            guard vocabulary[name] != nil else {
                throw InjectionError.unknownEvent(name: name, known: vocabulary.keys.sorted())
            }
        default: break
        }
    }

    private func prepare(_ event: Event) -> Event? {
        switch event {
        case .tap(var tap):
            if let point = tap.point {
                tap.target = scene.hitTest(point) { [animator] in !animator.blocksInteraction($0) }
            } else if let target = tap.target, let frame = scene.frameInScreen(target) {
                tap.point = Point(x: frame.midX, y: frame.midY)
            }
            tap.isControl = tap.target.flatMap { scene[$0]?.kind.isControl } ?? false
            return .tap(tap)
        case .text(var input):
            try? scene.update(input.target) { $0.text += input.text }
            if scene[input.target]?.secure == true { input.text = Redaction.placeholder }
            return .text(input)
        case .returnKey(let request):
            guard let node = scene[request.target] else { return event }
            return node.enablesReturnKeyAutomatically && node.text.isEmpty ? nil : event
        case .orientation(let change):
            scene.orientation = change.value
            try? layout?.layOutAgain()
            return event
        default:
            return event
        }
    }
}
