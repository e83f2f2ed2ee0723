import Testing
@testable import RehearseCore

private struct Refusal: Error, CustomStringConvertible {
    var description: String { "refused" }
}

/// Counts taps; throws on the tap numbered `failOnTap` (0: never).
private final class TapCounter: Behaviour {
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
    static let events = [EventDescription(name: "taps.counted", fields: "count", summary: "after each tap")]

    let configuration: Configuration
    var count = 0

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    func attach(to context: BehaviourContext) throws {
        context.subscribe(.name("tap")) { [unowned self] _ in
            count += 1
            if count == configuration.failOnTap { throw Refusal() }
            try context.emit(.custom(name: "taps.counted", fields: ["count": .int(Int64(count))]))
        }
    }

    func state(forKey key: String) -> FieldValue? { key == "count" ? .int(Int64(count)) : nil }
    var stateKeys: [String] { ["count"] }
}

/// Emits an event it never declared.
private final class Undeclared: Behaviour {
    struct Configuration: Codable, Sendable, Equatable {}
    static let id = "undeclared"
    static let summary = "emits an undeclared event"
    static let defaultConfiguration = Configuration()

    init(configuration: Configuration) {}

    func attach(to context: BehaviourContext) throws {
        context.subscribe(.name("network")) { _ in try context.emit(.custom(name: "not.declared", fields: [:])) }
    }
}

@Suite struct PluginTests {
    @Test func aThrowingPluginIsIsolatedAndTheOthersStillReceiveEvents() throws {
        let simulation = Simulation()
        let faulty = TapCounter(configuration: .init(failOnTap: 2))
        let healthy = TapCounter(configuration: .init())
        try simulation.install(faulty, id: "faulty", events: TapCounter.events)
        try simulation.install(healthy, id: "healthy")
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
        try simulation.install(BehaviourDescriptor(Undeclared.self))
        let log = simulation.record()
        try simulation.inject(.network(NetworkChange(online: true)))
        #expect(log.names == ["network", "plugin.failed"])
        #expect(simulation.bus.isIsolated("undeclared"))
    }

    @Test func configurationOverridesMergeIntoTheDefaults() throws {
        let descriptor = BehaviourDescriptor(TapCounter.self)
        // Whole numbers come back as integers from the JSON round trip; matching compares numerically.
        #expect(descriptor.defaultConfiguration == [
            "failOnTap": 0, "label": "taps", "limits": ["low": 1, "high": 2],
        ])
        let instance = try descriptor.makeInstance(overrides: ["label": "hits", "limits": ["high": 5]])
        let counter = try #require(instance as? TapCounter)
        #expect(counter.configuration == .init(failOnTap: 0, label: "hits", limits: .init(low: 1, high: 5)))
    }

    @Test func unknownAndMistypedConfigurationKeysAreNamed() {
        let descriptor = BehaviourDescriptor(TapCounter.self)
        #expect(throws: FieldError(path: "limits.middle", problem: .unknown(known: ["high", "low"]))) {
            try descriptor.makeInstance(overrides: ["limits": ["middle": 1]])
        }
        let error = #expect(throws: FieldError.self) { try descriptor.makeInstance(overrides: ["label": 3]) }
        #expect(error?.path == "label")
    }

    @Test func installingTheSameIdTwiceIsRefused() throws {
        let simulation = Simulation()
        let registry = BehaviourRegistry([BehaviourDescriptor(TapCounter.self), BehaviourDescriptor(TapCounter.self)])
        #expect(registry.descriptors.count == 1)
        let descriptor = try #require(registry["tap-counter"])
        try simulation.install(descriptor)
        #expect(throws: PluginInstallError.duplicate("tap-counter")) { try simulation.install(descriptor) }
        #expect(simulation.pluginIDs == ["tap-counter"])
        #expect(simulation.eventVocabulary.contains { $0.name == "taps.counted" })
    }

    @Test func unknownPluginStateKeysExplainWhatExists() throws {
        let simulation = Simulation()
        try simulation.install(BehaviourDescriptor(TapCounter.self))
        #expect(throws: PathError(path: "tap-counter.total", reason: "plugin 'tap-counter' has the keys count")) {
            try simulation.value(at: "tap-counter.total")
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
            let counter = TapCounter(configuration: .init())
            try running.install(counter, id: "counter", events: TapCounter.events)
            try running.inject(.tap(Tap(target: "field")))
            running.advance(by: VirtualTime.seconds(0.2)!)
            (simulation, bus, displayLink, plugin) = (running, running.bus, running.displayLink, counter)
        }
        #expect(simulation == nil)
        #expect(bus == nil)
        #expect(displayLink == nil)
        #expect(plugin == nil)
    }
}
