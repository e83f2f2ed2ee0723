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
    /// Recognises gestures in the touches on the bus.
    public let gestures: GestureService
    /// Moves scroll views that fingers drag and fling.
    public let scrolling: ScrollViewService
    /// Zooms scroll views that a pinch zooms, and springs them back.
    public let zooming: ZoomService
    /// The fingers down, as injection sees them.
    private let touches = TouchesDown()
    /// The touch events last scheduled, all for one time, while nothing else has been scheduled
    /// since: a touch scheduled for that time joins them (``inject(_:at:)``).
    private var lastTouchInstant: (time: VirtualTime, scheduled: UInt64, instant: TouchInstant)?

    /// The constraint layout of the scene, if it has one.
    public var layout: (any SceneLayout)?
    /// While a set-up built again and again (an exploration's) installs its plugins: what they kept
    /// the first time (``SetupMemo``). `nil` otherwise, and once the set-up is built.
    public var setupMemo: SetupMemo?

    /// What a set-up's plugins left of the simulation as values: the scene, and the vocabulary with
    /// their events (``SetupMemo``).
    struct InstalledValues {
        fileprivate let scene: Scene.Snapshot
        fileprivate let vocabulary: [String: (description: EventDescription, type: (any PluginEvent.Type)?)]
    }

    /// This simulation's scene and vocabulary now, for a simulation of the same device to start
    /// from (``init(device:animationModel:mode:installed:)``).
    func installedValues() -> InstalledValues {
        InstalledValues(scene: scene.snapshot(), vocabulary: vocabulary)
    }

    private var plugins: [(id: String, instance: any PluginInstance)] = []
    private let invariantMonitor = InvariantMonitor()
    /// Every event name this simulation accepts, with the plugin event type that reads its fields
    /// (`nil` for the built-in events).
    private var vocabulary = Simulation.builtinVocabulary
    /// The built-in part of every simulation's vocabulary, built once (a simulation's copy is
    /// copied on its first plugin event).
    private static let builtinVocabulary: [String: (description: EventDescription, type: (any PluginEvent.Type)?)] =
        Dictionary(uniqueKeysWithValues: EventDescription.builtin.map { ($0.name, ($0, nil)) })

    /// Creates a simulation at time zero with an empty scene filling `device`'s screen.
    public convenience init(device: Device = .iPhone5, animationModel: AnimationModel = .additive, mode: ClockMode = .virtual) {
        self.init(device: device, animationModel: animationModel, mode: mode, installed: nil)
    }

    /// Creates a simulation at time zero whose scene and vocabulary are the ones `installed` was
    /// taken of (a simulation of the same device; ``SetupMemo``), or, without it, an empty scene
    /// and the built-in events.
    init(device: Device, animationModel: AnimationModel, mode: ClockMode, installed: InstalledValues?) {
        self.device = device
        self.mode = mode
        let bus = EventBus()
        let timeline = Timeline(bus: bus)
        let scene = installed.map { Scene(device: device, restoring: $0.scene) } ?? Scene(device: device)
        if let installed { vocabulary = installed.vocabulary }
        let animator = Animator(scene: scene, bus: bus, timeline: timeline, model: animationModel)
        self.bus = bus
        self.timeline = timeline
        self.scene = scene
        self.animator = animator
        responders = ResponderService(scene: scene, bus: bus)
        let keyboard = KeyboardService(scene: scene, bus: bus, timeline: timeline, device: device)
        self.keyboard = keyboard
        let scrolling = ScrollViewService(
            scene: scene, bus: bus, timeline: timeline, animator: animator, keyboard: keyboard,
            device: device)
        self.scrolling = scrolling
        let zooming = ZoomService(
            scene: scene, bus: bus, timeline: timeline, animator: animator, scrolling: scrolling, device: device)
        self.zooming = zooming
        let tickSlot = Event.tick(Tick(timestamp: .zero, targetTimestamp: .zero)).builtinSlot ?? 0
        let displayLink = DisplayLink(refreshRate: device.refreshRate, bus: bus, timeline: timeline) {
            animator.runningCount > 0 || keyboard.isMoving || scrolling.needsFrames || zooming.needsFrames
                || bus.subscriberCount(forSlot: tickSlot) > 0
        }
        self.displayLink = displayLink
        gestures = GestureService(scene: scene, bus: bus, timeline: timeline)
        // The display link holds what it asks for frames, and they hold the way back to it: the
        // cycle is broken when the simulation goes away (deinit). Not a weak reference, to the
        // display link or to the simulation: a weakly referenced object takes the slow reference
        // counts on every retain and release (its side table), and every plugin reaches the
        // simulation through its context many times a set-up and a sequence.
        let wakeDisplayLink: () -> Void = { displayLink.wake() }
        animator.onAnimationStarted = wakeDisplayLink
        keyboard.onMovementStarted = wakeDisplayLink
        scrolling.onMotionStarted = wakeDisplayLink
        zooming.onMotionStarted = wakeDisplayLink
        displayLink.onFrame = { [unowned scrolling, unowned zooming] time in
            scrolling.frame(at: time)
            zooming.frame(at: time)
        }
        gestures.stopScrolling = { [unowned scrolling, unowned zooming] id in
            let scrolled = scrolling.stop(id)
            let zoomed = zooming.stop(id)
            return scrolled || zoomed
        }
        bus.subscribe(slotOf: .statusBarTap, owner: "scrolling") { [unowned self] _ in self.tapStatusBar() }
        bus.onSubscriptionsChanged = wakeDisplayLink
        // A tap the fingers made is published as an injected one is, hit-tested on the way in.
        gestures.emitTap = { [unowned self] tap in _ = try? self.emit(.tap(tap), source: "touch") }
    }

    // A plugin's handlers, actions and completions hold its context, which holds the bus, the
    // timeline and the animator: let go of them all, so that nothing keeps the others alive. The
    // ways back to the display link and the invariant check go too: whoever still holds a service
    // then wakes nothing and checks nothing.
    deinit {
        bus.removeAllSubscriptions()
        timeline.cancelAll()
        animator.cancelAll()
        animator.onAnimationStarted = nil
        keyboard.onMovementStarted = nil
        scrolling.onMotionStarted = {}
        zooming.onMotionStarted = {}
        bus.onSubscriptionsChanged = nil
        bus.afterDelivery = nil
    }

    /// The current virtual time.
    public var now: VirtualTime { timeline.now }

    // MARK: Plugins

    /// The ids of the installed plugins, in install order.
    public var pluginIDs: [String] { plugins.map(\.id) }

    /// The installed plugin with `id`.
    public func plugin(_ id: String) -> (any PluginInstance)? {
        plugins.first { $0.id == id }?.instance
    }

    /// Makes and installs a registered plugin with `overrides` on top of its defaults. If making it
    /// throws, whatever it subscribed or scheduled is dropped and the error is rethrown.
    public func install(_ descriptor: PluginDescriptor, overrides: Fields = [:]) throws {
        try install(try descriptor.configured(overrides))
    }

    /// Installs a plugin whose configuration was decoded beforehand.
    public func install(_ plugin: ConfiguredPlugin) throws {
        try declare(plugin.descriptor.untypedEvents, by: plugin.descriptor.id)
        _ = try install(id: plugin.descriptor.id, events: plugin.descriptor.eventTypes, stored: { $0 }, make: plugin.make)
    }

    /// Makes and installs a plugin of type `type` under `id` (its own by default) and returns it.
    @discardableResult
    public func install<P: Plugin>(
        _ type: P.Type, configuration: P.Configuration = P.defaultConfiguration,
        id: String = P.id
    ) throws -> P {
        try install(id: id, events: P.events, stored: { $0 }) { context in
            try P(configuration: configuration, context: context)
        }
    }

    private func install<Made>(
        id: String, events: [any PluginEvent.Type], stored: (Made) -> any PluginInstance,
        make: (PluginContext) throws -> Made
    ) throws -> Made {
        guard plugin(id) == nil else { throw PluginInstallError.duplicate(id) }
        try declare(events, by: id)
        do {
            let made = try make(PluginContext(pluginID: id, simulation: self))
            plugins.append((id, stored(made)))
            return made
        } catch {
            bus.isolate(id, because: error)
            throw error
        }
    }

    /// Adds plugin-defined event types to the vocabulary. A scenario declares every plugin's events
    /// before installing any, so plugins may subscribe by name to each other's events whatever
    /// their order. Declaring a type again is harmless; another type under a taken name is refused.
    public func declare(_ types: [any PluginEvent.Type], by plugin: String) throws(PluginInstallError) {
        for type in types {
            // Declared already (every subscription of a plugin to its own events declares them again):
            // nothing to describe.
            if let declared = vocabulary[type.name]?.type, declared == type { continue }
            try declare(type.eventDescription, type: type, by: plugin)
        }
    }

    /// Adds the events a plugin declared without Swift types (a remote plugin's) to the vocabulary.
    /// Declaring one again with the same description is harmless; another under a taken name is refused.
    public func declare(_ events: [EventDescription], by plugin: String) throws(PluginInstallError) {
        for event in events { try declare(event, type: nil, by: plugin) }
    }

    /// Every event `descriptor`'s plugin declares, typed or not.
    public func declareEvents(of descriptor: PluginDescriptor) throws(PluginInstallError) {
        try declare(descriptor.eventTypes, by: descriptor.id)
        try declare(descriptor.untypedEvents, by: descriptor.id)
    }

    private func declare(_ event: EventDescription, type: (any PluginEvent.Type)?, by plugin: String) throws(PluginInstallError) {
        guard let existing = vocabulary[event.name] else {
            vocabulary[event.name] = (event, type)
            return
        }
        let same =
            switch (existing.type, type) {
            case (let existingType?, let type?): existingType == type
            case (nil, nil): BuiltinEvent(name: event.name) == nil && existing.description == event
            case (_?, nil), (nil, _?): false
            }
        guard same else { throw PluginInstallError.conflictingEvent(plugin: plugin, name: event.name) }
    }

    /// The vocabulary line of the event named `name`, if this simulation accepts it.
    public func declaredEvent(named name: String) -> EventDescription? {
        vocabulary[name]?.description
    }

    /// Every event name this simulation accepts: the built-in ones and the installed plugins'.
    public var eventVocabulary: [EventDescription] {
        vocabulary.values.map(\.description).sorted { $0.name < $1.name }
    }

    // MARK: Invariants

    /// Adds an invariant, checked after every delivered event from now on; `owner` is `scenario`
    /// or a plugin id. Its paths are not checked here (a scenario checks them against the scene as
    /// declared, a plugin's context against the scene now).
    public func addInvariant(_ invariant: Invariant, owner: String) {
        addInvariant(named: invariant.name, owner: owner, weight: invariant.paths.count) { [unowned self] in
            invariant.evaluate(in: self)
        }
    }

    /// Adds an invariant computed by `evaluate` (a plugin's own test), whose check reads `weight` paths.
    func addInvariant(named name: String, owner: String, weight: Int = 1, evaluate: @escaping () -> InvariantOutcome) {
        invariantMonitor.add(name: name, owner: owner, weight: weight, evaluate: evaluate)
        guard bus.afterDelivery == nil else { return }
        // The bus calls it, so it is there; the simulation lets go of it as it goes away.
        bus.afterDelivery = { [invariantMonitor, unowned bus] in invariantMonitor.check(on: bus) }
    }

    /// What checking every invariant once costs, in paths read: one per path an invariant reads
    /// (a `finite` rule of 100 paths, 100), at least one each. A run's budget counts it.
    public var invariantWeight: Int { invariantMonitor.weight }

    /// The name and owner of every invariant checked, in the order they were added.
    public var invariants: [(name: String, owner: String)] { invariantMonitor.declared }

    /// Checks every invariant now (they are checked after every delivery; a driver that changed the
    /// scene without an event, such as a scenario's `set`, checks here).
    public func checkInvariants() {
        invariantMonitor.check(on: bus)
    }

    // MARK: Events

    /// Checks `event`, applies what it does to the scene on the way in (hit-testing a tap, typing
    /// text, rotating), and publishes it. Returns its sequence number, or `nil` when the event was
    /// swallowed (the return key of an empty field that auto-disables it). Throws, changing
    /// nothing, for an unknown event name or a target the scene does not have.
    @discardableResult
    public func inject(_ event: Event) throws(InjectionError) -> UInt64? {
        if let (phase, touch) = event.touch { try touches.check(phase, touch) }
        let sequence = try emit(event, source: "injected")
        injectionObserver?(event, nil)
        return sequence
    }

    /// Told of every event injected from outside, as it was given: by ``inject(_:)`` after it was
    /// delivered (time nil), by ``inject(_:at:)`` when it is scheduled (the time it is due). What
    /// a recording of a session keeps.
    public var injectionObserver: ((Event, VirtualTime?) -> Void)?

    /// ``inject(_:)`` on behalf of `source` (a plugin emitting through its context).
    func emit(_ event: Event, source: String) throws(InjectionError) -> UInt64? {
        guard !bus.isCascadeFull else { throw .cascadeLimit }
        try check(event)
        guard let prepared = prepare(event) else { return nil }
        return bus.publish(prepared, source: source)
    }

    /// The fingers down (a `touch.began` delivered and no `touch.ended` or `touch.cancelled`
    /// since), and where each is.
    public var touchesDown: [Int: Point] { touches.points }

    /// Checks `event` now and injects it at `time`. Touch events scheduled one after another for
    /// one time, with nothing else scheduled between them, are one touch event when due: their
    /// moves reach the recognisers together (UIKit's one `touchesMoved` call for the fingers that
    /// moved at once; ``GestureService/together(_:)``).
    public func inject(_ event: Event, at time: VirtualTime) throws(InjectionError) {
        guard time >= now else {
            throw InjectionError.invalidTime("time \(time) s is before the current time \(now) s")
        }
        try check(event)
        if event.touch != nil {
            scheduleTouch(event, at: time)
        } else {
            timeline.schedule(at: time, owner: "injector") { [unowned self] in
                _ = try self.emit(event, source: "injected")
            }
        }
        injectionObserver?(event, time)
    }

    /// Injects the moves of fingers down as one touch event now (the fingers of a viewer page's
    /// pinch): each checked first, none injected if any is refused or a finger moves twice.
    public func injectMoves(_ moves: [Touch]) throws(InjectionError) {
        // The fingers before it, not a set: each must be down, so a repeat is found among at most
        // the screen's ten fingers, and a frame of a pinch allocates nothing to check it.
        for (index, touch) in moves.enumerated() {
            guard !moves[..<index].contains(where: { $0.id == touch.id }) else {
                throw InjectionError.invalidTouch("touch \(touch.id) moves twice at once")
            }
            try touches.check(.moved, touch)
            try check(.touchMoved(touch))
        }
        try gestures.together { () throws(InjectionError) in
            for touch in moves { _ = try emit(.touchMoved(touch), source: "injected") }
        }
        for touch in moves { injectionObserver?(.touchMoved(touch), nil) }
    }

    /// Touch events due at one time, delivered as one touch event.
    private final class TouchInstant {
        var events: [Event]

        init(_ event: Event) {
            events = [event]
        }
    }

    /// Schedules touch `event` at `time`: with the touches last scheduled, if they are for that
    /// time, not yet due and nothing else was scheduled since; else as a new instant.
    private func scheduleTouch(_ event: Event, at time: VirtualTime) {
        if let last = lastTouchInstant, last.time == time, last.scheduled == timeline.scheduledCount {
            last.instant.events.append(event)
            return
        }
        let instant = TouchInstant(event)
        timeline.schedule(at: time, owner: "injector") { [unowned self] in
            if lastTouchInstant?.instant === instant { lastTouchInstant = nil }
            let deliver = { [unowned self] () throws(InjectionError) in
                for event in instant.events { _ = try emit(event, source: "injected") }
            }
            // A single move goes as one always did: its gestures published while it is delivered.
            if instant.events.count(where: { $0.touch?.0 == .moved }) > 1 {
                try gestures.together(deliver)
            } else {
                try deliver()
            }
        }
        lastTouchInstant = (time, timeline.scheduledCount, instant)
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
        case .text(let input):
            try node(input.target, field: "target", textInput: true)
            if let field = scene[input.target], !ScenarioLimits.textFits(field.text, appending: input.text) {
                throw InjectionError.textTooLong(target: input.target)
            }
        case .resign(let request): try node(request.target, field: "target")
        case .tap(let tap): try node(tap.target, field: "target")
        case .touchBegan(let touch), .touchMoved(let touch), .touchEnded(let touch), .touchCancelled(let touch):
            try checkOnScreen(touch.point, "touch at")
        case .gesturePan(let pan):
            try node(pan.target, field: "target")
            try checkOnScreen(pan.location, "location")
            try checkVelocity(pan.velocity)
        case .gestureSwipe(let swipe):
            try node(swipe.target, field: "target")
            try checkOnScreen(swipe.location, "location")
        case .gestureLongPress(let press):
            try node(press.target, field: "target")
            try checkOnScreen(press.location, "location")
        case .gesturePinch(let pinch):
            try node(pinch.target, field: "target")
            try checkOnScreen(pinch.center, "center")
            try checkPinch(pinch)
        case .scrollWillBeginDragging(let request): try node(request.target, field: "target")
        case .scrollDidScroll(let position), .scrollDidEndDecelerating(let position), .scrollDidScrollToTop(let position):
            try node(position.target, field: "target")
        case .scrollWillEndDragging(let release): try node(release.target, field: "target")
        case .scrollWillBeginZooming(let zoom), .scrollDidZoom(let zoom), .scrollDidEndZooming(let zoom):
            try node(zoom.target, field: "target")
            try node(zoom.view, field: "view")
            do { try Zooming.checkScale(zoom.zoomScale, path: "zoomScale") } catch {
                throw .invalidFields(name: event.name, error)
            }
        case .custom(let name, let fields):
            guard let declared = vocabulary[name] else {
                throw InjectionError.unknownEvent(name: name, known: vocabulary.keys.sorted())
            }
            do {
                if let type = declared.type {
                    _ = try type.init(fields: fields)
                } else {
                    try declared.description.checkFields(fields)
                }
            } catch {
                throw InjectionError.invalidFields(name: name, error)
            }
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide, .focusChanged, .motion, .tick,
            .orientation, .animationFinished, .network, .pluginFailed, .invariantFailed, .statusBarTap:
            break
        }
    }

    /// Throws unless `point` is on the screen (its edges included) in the current orientation:
    /// "`what` (x, y) is off the W × H screen".
    private func checkOnScreen(_ point: Point, _ what: String) throws(InjectionError) {
        let size = scene.bounds.size
        guard (0...size.width).contains(point.x), (0...size.height).contains(point.y) else {
            throw InjectionError.invalidTouch("\(what) (\(point.x), \(point.y)) is off the \(size.width) × \(size.height) screen")
        }
    }

    /// Throws unless both components of a gesture's velocity are within
    /// ``ScenarioLimits/gestureVelocity`` (a fling any faster would carry a scroll view's offset
    /// past every number).
    private func checkVelocity(_ velocity: Point) throws(InjectionError) {
        let limit = ScenarioLimits.gestureVelocity
        guard abs(velocity.x) <= limit, abs(velocity.y) <= limit else {
            throw InjectionError.invalidTouch(
                "velocity (\(velocity.x), \(velocity.y)) is faster than "
                    + "\(Int(limit)) points per second on an axis, the most a gesture may have")
        }
    }

    /// Throws unless a pinch has the pinch step's limits: a scale more than 0 and at most
    /// ``ScenarioLimits/pinchScale``, changing at most ``ScenarioLimits/pinchVelocity`` a second.
    private func checkPinch(_ pinch: PinchGesture) throws(InjectionError) {
        let scale = ScenarioLimits.pinchScale
        guard pinch.scale > 0, pinch.scale <= scale else {
            throw InjectionError.invalidTouch(
                "scale \(pinch.scale.shortDescription) must be more than 0 and at most \(scale.shortDescription) (ScenarioLimits.pinchScale)"
            )
        }
        let velocity = ScenarioLimits.pinchVelocity
        guard abs(pinch.velocity) <= velocity else {
            throw InjectionError.invalidTouch(
                "velocity \(pinch.velocity.shortDescription) is faster than \(velocity.shortDescription) a second either way, "
                    + "the most a pinch's scale may change (ScenarioLimits.pinchVelocity)")
        }
    }

    /// The node a tap at `point` lands on: hit-tested as UIKit does, skipping nodes animating
    /// without `allowUserInteraction`.
    private func hitTarget(_ point: Point) -> String? {
        scene.hitTest(point) { [animator] in !animator.blocksInteraction($0) }
    }

    /// The node a finger at `point` comes down on: as ``hitTarget(_:)``, and shape layers take no
    /// touch (a `CAShapeLayer` is not a view: the panner's scroll bar lies over its photo). Taps
    /// keep ``hitTarget(_:)``, so that a finger's tap is the tap an injected one is.
    private func touchTarget(_ point: Point) -> String? {
        scene.hitTest(point) { [animator, scene] in !animator.blocksInteraction($0) && scene.read($0) { $0.kind } != .shape }
    }

    private func prepare(_ event: Event) -> Event? {
        switch event {
        case .touchBegan, .touchMoved, .touchEnded, .touchCancelled:
            guard let (phase, touch) = event.touch else { return event }
            return touches.prepare(phase, touch, hitTest: touchTarget).map { Event(phase, $0) }
        case .tap(var tap):
            if let point = tap.point {
                tap.target = hitTarget(point)
            } else if let target = tap.target, let frame = scene.frameInScreen(target) {
                tap.point = Point(x: frame.midX, y: frame.midY)
            }
            tap.isControl = tap.target.flatMap { scene[$0]?.kind.isControl } ?? false
            return .tap(tap)
        case .text(var input):
            try? scene.update(input.target) { $0.text.append(input.text) }
            if scene[input.target]?.secure == true || SecretMatcher(scene.secureTexts).matches(input.text) {
                input.text = Redaction.placeholder
            }
            return .text(input)
        case .returnKey(let request):
            guard let node = scene[request.target] else { return event }
            return node.enablesReturnKeyAutomatically && node.text.isEmpty ? nil : event
        case .orientation(let change):
            scene.orientation = change.value
            try? layout?.layOutAgain()
            return event
        case .custom:
            return redactingSecrets(event)
        default:
            return event
        }
    }
}
