import Testing

@testable import RehearseCore

private struct Refusal: Error, CustomStringConvertible {
    var description: String { "refused" }
}

/// After each tap: how many taps so far.
private struct Counted: PluginEvent, Codable {
    static let name = "taps.counted"
    static let fieldSummary = "count"
    static let summary = "after each tap"
    var count: Int
}

/// Counts taps; throws on the tap numbered `failOnTap` (0: never).
private final class TapCounter: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var failOnTap = 0
        var label = "taps"
        var limits = Limits()
    }

    struct Limits: Codable, Sendable, Equatable {
        var low = 1.0
        var high = 2.0
    }

    static let id = "tap-counter"
    static let summary = "counts taps"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [Counted.self]

    let configuration: Configuration
    var count = 0

    init(configuration: Configuration, context: PluginContext) {
        self.configuration = configuration
        context.on(.tap) { [unowned self] _ in
            count += 1
            if count == configuration.failOnTap { throw Refusal() }
            try context.emit(Counted(count: count))
        }
    }

    var state: Fields { ["count": .int(Int64(count)), "limits": ["low": .double(configuration.limits.low)]] }
}

/// Listens by name to what `subscribesTo` names, and records the counts it hears typed.
private final class Listener: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var subscribesTo = "taps.counted"
    }

    static let id = "listener"
    static let summary = "listens to another plugin's event"
    static let defaultConfiguration = Configuration()

    var heardByName: [String] = []
    var heardTyped: [Int] = []

    init(configuration: Configuration, context: PluginContext) throws {
        try context.on(named: configuration.subscribesTo) { [unowned self] event in heardByName.append(event.event.name) }
        try context.on(Counted.self) { [unowned self] counted in heardTyped.append(counted.count) }
    }
}

/// Emits an event it never declared.
private final class Undeclared: Plugin {
    struct Configuration: Codable, Sendable, Equatable {}
    static let id = "undeclared"
    static let summary = "emits an undeclared event"
    static let defaultConfiguration = Configuration()

    init(configuration: Configuration, context: PluginContext) {
        context.on(.network) { _ in try context.emit(.custom(name: "not.declared", fields: [:])) }
    }
}

/// On each `network` event emits a `keyboard.willShow` of `height` points lasting `duration`
/// seconds, typed (as a Swift plugin builds it) or by name (as a remote plugin's `emit` effect).
private final class KeyboardFaker: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var height = 216.0
        var duration = 0.25
        var byName = false
    }

    static let id = "keyboard-faker"
    static let summary = "emits a keyboard.willShow"
    static let defaultConfiguration = Configuration()

    init(configuration: Configuration, context: PluginContext) {
        let frame = Rect(x: 0, y: 352, width: 320, height: configuration.height)
        context.on(.network) { _ in
            if configuration.byName {
                try context.emit(
                    named: "keyboard.willShow", fields: ["frame": frame.fieldValue, "duration": .double(configuration.duration)])
            } else {
                try context.emit(
                    .keyboardWillShow(
                        KeyboardChange(
                            frame: frame, beginFrame: frame, duration: configuration.duration,
                            curve: .keyboard)))
            }
        }
    }
}

/// On each `network` event types `text` into `field`, or sets `field.text` to it.
private final class Typist: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var text = "a"
        var sets = false
    }

    static let id = "typist"
    static let summary = "types on each network event"
    static let defaultConfiguration = Configuration()

    init(configuration: Configuration, context: PluginContext) {
        context.on(.network) { _ in
            if configuration.sets {
                try context.setValue(.string(configuration.text), at: "field.text")
            } else {
                try context.emit(.text(TextInput(target: "field", text: configuration.text)))
            }
        }
    }
}

/// Declares its own event type under a name `Counted` already has.
private final class Impostor: Plugin {
    struct Configuration: Codable, Sendable, Equatable {}
    struct OtherCounted: PluginEvent, Codable {
        static let name = "taps.counted"
        static let fieldSummary = "total"
        static let summary = "a different event with the same name"
        var total: Int
    }

    static let id = "impostor"
    static let summary = "declares a taken event name"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [OtherCounted.self]

    init(configuration: Configuration, context: PluginContext) {}
}

@Suite struct PluginTests {
    @Test func aThrowingPluginIsIsolatedAndTheOthersStillReceiveEvents() throws {
        let simulation = Simulation()
        let faulty = try simulation.install(TapCounter.self, configuration: .init(failOnTap: 2), id: "faulty")
        let healthy = try simulation.install(TapCounter.self, id: "healthy")
        let log = simulation.record()
        for _ in 0..<4 { try simulation.inject(.tap(Tap(point: Point(x: 1, y: 1)))) }
        #expect(faulty.count == 2)
        #expect(healthy.count == 4)
        let failures = log.events.filter { $0.event.name == "plugin.failed" }
        #expect(failures.map(\.event) == [.pluginFailed(PluginFailure(plugin: "faulty", error: "refused"))])
        #expect(try simulation.value(at: "healthy.count") == 4)
    }

    @Test func emittingAnUndeclaredEventIsolatesThePlugin() throws {
        let simulation = Simulation()
        try simulation.install(PluginDescriptor(Undeclared.self))
        let log = simulation.record()
        try simulation.inject(.network(NetworkChange(online: true)))
        #expect(log.names == ["network", "plugin.failed"])
        #expect(simulation.bus.isIsolated("undeclared"))
    }

    /// Issue 37: a built-in event a plugin emits is checked exactly as an injected one, typed or
    /// by name: a keyboard 1e308 tall for 1e300 s, or lasting NaN or -1 s, is refused (the plugin
    /// fails) and never delivered; the same event injected is refused alike.
    @Test func aBuiltInEventAPluginEmitsIsCheckedAsAnInjectedOne() throws {
        let refused: [(height: Double, duration: Double)] = [
            (1e308, 1e300), (216, 1e300), (1e308, 0.25), (216, .nan), (216, -1),
            (ScenarioLimits.deviceLength + 1, 0.25),
            (216, ScenarioLimits.runSeconds + 1),
        ]
        for (height, duration) in refused {
            for byName in [false, true] {
                let simulation = Simulation()
                try simulation.install(
                    KeyboardFaker.self, configuration: .init(height: height, duration: duration, byName: byName))
                let log = simulation.record()
                try simulation.inject(.network(NetworkChange(online: true)))
                #expect(log.names == ["network", "plugin.failed"], "\(height) tall for \(duration) s, by name: \(byName)")
                #expect(simulation.bus.isIsolated(KeyboardFaker.id))
                let fields: Fields = [
                    "frame": Rect(x: 0, y: 352, width: 320, height: height).fieldValue, "duration": .double(duration),
                ]
                #expect(throws: FieldError.self, "injected: \(height) tall for \(duration) s") {
                    try simulation.inject(try Event(name: "keyboard.willShow", fields: fields))
                }
            }
        }
        for byName in [false, true] {
            let simulation = Simulation()
            try simulation.install(
                KeyboardFaker.self,
                configuration: .init(
                    height: ScenarioLimits.deviceLength,
                    duration: ScenarioLimits.runSeconds, byName: byName))
            let log = simulation.record()
            try simulation.inject(.network(NetworkChange(online: true)))
            #expect(log.names.prefix(2) == ["network", "keyboard.willShow"], "at the limits, by name: \(byName)")
        }
    }

    /// Issue 37: a field holds at most `ScenarioLimits.textLength` Unicode scalars however its text
    /// comes (injected, emitted or set by a plugin, set through a path); what would pass it is
    /// refused and the field keeps its text. Two-byte scalars, past the UTF-8 shortcut of the count.
    @Test func aFieldHoldsAtMostTheTextLengthHoweverItsTextComes() throws {
        let limit = ScenarioLimits.textLength
        let simulation = Simulation()
        try simulation.scene.add(Node(id: "field", kind: .textField, frame: Rect(x: 0, y: 0, width: 100, height: 30)))
        try simulation.inject(.text(TextInput(target: "field", text: String(repeating: "\u{E9}", count: limit - 1))))
        try simulation.inject(.text(TextInput(target: "field", text: "x")))
        #expect(throws: InjectionError.textTooLong(target: "field")) {
            try simulation.inject(.text(TextInput(target: "field", text: "y")))
        }
        #expect(simulation.scene["field"]?.text.unicodeScalars.count == limit)
        #expect(throws: PathError.self) {
            try simulation.setValue(.string(String(repeating: "a", count: limit + 1)), at: "field.text")
        }
        try simulation.setValue(.string(String(repeating: "a", count: limit)), at: "field.text")
        #expect(simulation.scene["field"]?.text == String(repeating: "a", count: limit))

        for sets in [false, true] {
            let simulation = Simulation()
            try simulation.scene.add(Node(id: "field", kind: .textField, frame: Rect(x: 0, y: 0, width: 100, height: 30)))
            try simulation.setValue(.string(String(repeating: "a", count: limit)), at: "field.text")
            try simulation.install(
                Typist.self, configuration: .init(text: sets ? String(repeating: "b", count: limit + 1) : "b", sets: sets))
            let log = simulation.record()
            try simulation.inject(.network(NetworkChange(online: true)))
            #expect(log.names == ["network", "plugin.failed"], "sets: \(sets)")
            #expect(simulation.scene["field"]?.text == String(repeating: "a", count: limit))
        }
    }

    @Test func typedAndNamedSubscriptionsReceiveAnotherPluginsEvents() throws {
        let simulation = Simulation()
        try simulation.install(TapCounter.self)
        let listener = try simulation.install(Listener.self)
        try simulation.inject(.tap(Tap(point: Point(x: 1, y: 1))))
        try simulation.inject(.tap(Tap(point: Point(x: 1, y: 1))))
        #expect(listener.heardByName == ["taps.counted", "taps.counted"])
        #expect(listener.heardTyped == [1, 2])
    }

    @Test func aMisspeltSubscriptionFailsTheInstallNamingTheNearestEvent() throws {
        let simulation = Simulation()
        try simulation.install(TapCounter.self)
        let error = #expect(throws: PluginInstallError.self) {
            try simulation.install(Listener.self, configuration: .init(subscribesTo: "taps.countd"))
        }
        #expect(
            error?.description
                == "plugin 'listener' subscribes to unknown event 'taps.countd' (did you mean 'taps.counted'?); "
                + "subscribe to a built-in event, or to one a plugin declares")
        #expect(simulation.pluginIDs == ["tap-counter"])
        #expect(simulation.bus.isIsolated("listener"))
        #expect(throws: PluginInstallError.self) {
            try Simulation().install(Listener.self, configuration: .init(subscribesTo: "keyboard.wilShow"))
        }
    }

    @Test func eventsDeclaredBeforeInstallingCanBeSubscribedToWhateverTheOrder() throws {
        let simulation = Simulation()
        try simulation.declare(TapCounter.events, by: TapCounter.id)
        let listener = try simulation.install(Listener.self)
        try simulation.install(TapCounter.self)
        try simulation.inject(.tap(Tap(point: Point(x: 1, y: 1))))
        #expect(listener.heardByName == ["taps.counted"])
    }

    @Test func anotherEventTypeUnderATakenNameIsRefused() throws {
        let simulation = Simulation()
        try simulation.install(TapCounter.self)
        #expect(throws: PluginInstallError.conflictingEvent(plugin: "impostor", name: "taps.counted")) {
            try simulation.install(Impostor.self)
        }
    }

    @Test func injectedPluginEventsAreCheckedAgainstTheirType() throws {
        let simulation = Simulation()
        try simulation.install(TapCounter.self)
        let log = simulation.record()
        #expect(
            throws: InjectionError.invalidFields(
                name: "taps.counted", FieldError(path: "total", problem: .unknown(known: ["count"])))
        ) {
            try simulation.inject(.custom(name: "taps.counted", fields: ["count": 1, "total": 2]))
        }
        #expect(throws: InjectionError.self) { try simulation.inject(.custom(name: "taps.counted", fields: [:])) }
        #expect(throws: InjectionError.self) { try simulation.inject(.custom(name: "taps.counted", fields: ["count": "one"])) }
        #expect(log.events.isEmpty)
        try simulation.inject(Counted(count: 7).event)
        #expect(log.events.map(\.event) == [.custom(name: "taps.counted", fields: ["count": 7])])
    }

    /// An event declared without a Swift type (a remote plugin's) is checked against the fields its
    /// description names, however it comes: injected, or emitted by a plugin.
    @Test func injectedUntypedEventsAreCheckedAgainstTheirDeclaredFields() throws {
        let simulation = Simulation()
        try simulation.declare([EventDescription(name: "probe.seen", fields: "count, note?", summary: "a probe")], by: "probe")
        let log = simulation.record()
        #expect(throws: InjectionError.invalidFields(name: "probe.seen", FieldError(path: "count", problem: .missing))) {
            try simulation.inject(.custom(name: "probe.seen", fields: ["note": "x"]))
        }
        #expect(
            throws: InjectionError.invalidFields(
                name: "probe.seen", FieldError(path: "total", problem: .unknown(known: ["count", "note"])))
        ) {
            try simulation.inject(.custom(name: "probe.seen", fields: ["count": 1, "total": 2]))
        }
        #expect(log.events.isEmpty)
        try simulation.inject(.custom(name: "probe.seen", fields: ["count": 1]))
        #expect(log.events.map(\.event) == [.custom(name: "probe.seen", fields: ["count": 1])])
    }

    @Test func configurationOverridesMergeIntoTheDefaults() throws {
        let descriptor = PluginDescriptor(TapCounter.self)
        // Whole numbers come back as integers from the JSON round trip; matching compares numerically.
        #expect(
            descriptor.defaultConfiguration == [
                "failOnTap": 0, "label": "taps", "limits": ["low": 1, "high": 2],
            ])
        let simulation = Simulation()
        try simulation.install(descriptor, overrides: ["label": "hits", "limits": ["high": 5]])
        let counter = try #require(simulation.plugin("tap-counter") as? TapCounter)
        #expect(counter.configuration == .init(failOnTap: 0, label: "hits", limits: .init(low: 1, high: 5)))
    }

    @Test func unknownAndMistypedConfigurationKeysAreNamed() {
        let descriptor = PluginDescriptor(TapCounter.self)
        #expect(throws: FieldError(path: "limits.middle", problem: .unknown(known: ["high", "low"]))) {
            try Simulation().install(descriptor, overrides: ["limits": ["middle": 1]])
        }
        let error = #expect(throws: FieldError.self) { try Simulation().install(descriptor, overrides: ["label": 3]) }
        #expect(error?.path == "label")
    }

    /// A registry with two plugins of one id is a program's mistake: it stops there, named.
    @Test func aRegistryWithTwoPluginsOfOneIdStops() async {
        await #expect(processExitsWith: .failure) {
            _ = PluginRegistry([PluginDescriptor(TapCounter.self), PluginDescriptor(TapCounter.self)])
        }
    }

    @Test func installingTheSameIdTwiceIsRefused() throws {
        let simulation = Simulation()
        let descriptor = PluginDescriptor(TapCounter.self)
        try simulation.install(descriptor)
        #expect(throws: PluginInstallError.duplicate("tap-counter")) { try simulation.install(descriptor) }
        #expect(simulation.pluginIDs == ["tap-counter"])
        #expect(simulation.eventVocabulary.contains { $0.name == "taps.counted" })
    }

    @Test func pluginStateIsOneValueThatPathsReadIntoAndExplain() throws {
        let simulation = Simulation()
        try simulation.install(TapCounter.self)
        #expect(try simulation.value(at: "tap-counter.limits.low")?.number == 1)
        #expect(
            throws: PathError(
                path: "tap-counter.total", reason: "plugin 'tap-counter' has no key 'total'; its keys: count, limits")
        ) {
            try simulation.value(at: "tap-counter.total")
        }
        #expect(
            throws: PathError(path: "tap-counter.limits.high", reason: "'tap-counter.limits' has no key 'high'; its keys: low")
        ) {
            try simulation.value(at: "tap-counter.limits.high")
        }
        #expect(throws: PathError(path: "tap-counter.count.x", reason: "'tap-counter.count' is a single value")) {
            try simulation.value(at: "tap-counter.count.x")
        }
        #expect(
            throws: PathError(
                path: "tap-counter.cont",
                reason: "plugin 'tap-counter' has no key 'cont' (did you mean 'count'?); its keys: count, limits")
        ) {
            try simulation.value(at: "tap-counter.cont")
        }
    }
}

@Suite struct NodeHandleTests {
    @Test func aHandleReadsWhatTheIdReadsAndFollowsANodeAddedAgain() throws {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        let handle = try #require(simulation.scene.handle("box"))
        simulation.animator.animate(AnimationParameters(duration: 1, curve: .linear), owner: "test") {
            try? simulation.animator.set(Rect(x: 100, y: 0, width: 10, height: 10).vector, for: .frame, of: handle)
        }
        simulation.advance(seconds: 0.25)
        // A quarter of the way along a linear curve; the Bézier solver is exact to 1e-7 in x.
        let quarter = try #require(simulation.animator.presentationValue(of: .frame, of: handle))
        #expect(abs(quarter[0] - 25) < 1e-5)
        #expect(
            simulation.animator.presentationValue(of: .frame, of: handle)
                == simulation.animator.presentationValue(of: .frame, of: "box"))
        // Removed, then another node takes the slot, then a node with the id comes back.
        try simulation.scene.remove("box")
        #expect(simulation.animator.presentationValue(of: .frame, of: handle) == nil)
        try simulation.addNode("other", .view, Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(simulation.scene[handle] == nil)
        try simulation.addNode("box", .view, Rect(x: 7, y: 0, width: 10, height: 10))
        #expect(simulation.scene[handle]?.frame.minX == 7)
        #expect(throws: SceneError.unknownNode("gone")) {
            try simulation.animator.set(.zero, for: .alpha, of: NodeHandle(id: "gone", slot: 0, generation: 0))
        }
    }
}

@Suite struct LifetimeTests {
    /// Found by the loader fuzzer's leak checker: the display link and the services it wakes must
    /// not keep each other alive.
    @Test func aSimulationAndItsServicesAreFreedAfterARun() throws {
        weak var simulation: Simulation?
        weak var bus: EventBus?
        weak var displayLink: DisplayLink?
        weak var plugin: TapCounter?
        do {
            let running = Simulation()
            try running.scene.add(Node(id: "field", kind: .textField, frame: Rect(x: 0, y: 0, width: 100, height: 30)))
            let counter = try running.install(TapCounter.self, id: "counter")
            try running.inject(.tap(Tap(target: "field")))
            running.advance(by: VirtualTime.seconds(0.2)!)
            (simulation, bus, displayLink, plugin) = (running, running.bus, running.displayLink, counter)
        }
        #expect(simulation == nil)
        #expect(bus == nil)
        #expect(displayLink == nil)
        #expect(plugin == nil)
    }

    /// Nothing holds the simulation weakly (a weakly referenced object takes the slow reference
    /// counts on every retain, and plugins reach the simulation many times a sequence): the way
    /// back to the display link and the invariant check hold what they need, and the simulation
    /// lets go of them as it goes away, so a bus and an animator kept past it wake and check nothing.
    @Test func servicesKeptPastTheirSimulationWakeAndCheckNothing() throws {
        let checks = Counter()
        let (bus, animator, timeline): (EventBus, Animator, Timeline) = try {
            let simulation = Simulation()
            try simulation.scene.add(Node(id: "box", kind: .view, frame: Rect(x: 0, y: 0, width: 10, height: 10)))
            simulation.addInvariant(named: "counted", owner: "test") {
                checks.count += 1
                return .holds
            }
            simulation.bus.publish(.resign(ResignRequest()), source: "test")
            #expect(checks.count == 1)
            return (simulation.bus, simulation.animator, simulation.timeline)
        }()
        bus.publish(.resign(ResignRequest()), source: "test")
        try animator.animate(AnimationParameters(duration: 1), owner: "test") {
            try animator.set(SIMD4(0.5, 0, 0, 0), for: .alpha, of: "box")
        }
        #expect(checks.count == 1)
        #expect(timeline.pendingCount == 1)  // the animation's end, and no vsync for it
    }

    private final class Counter {
        var count = 0
    }
}
