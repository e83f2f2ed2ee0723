import Benchmark
import Foundation
import RehearseCore
import RehearsePluginHost
import RehearseScenario

/// Remote plugins (issue 28), side by side in one run: the same counting plugin in process (Swift),
/// as a program over peer-to-peer D-Bus (`CountingPlugin`, C with libdbus, built beside this
/// benchmark) and, when the checkout has `clients/python/rehearse/plugin.py`, in Python on it
/// (`remote/counting_plugin.py`, jeepney), each subscribed to `tick` for 10 simulated seconds of a
/// 60 Hz display link (600 deliveries), or to `tap` for one delivery. The remote plugins are
/// started through the public API, as `rehearse run` starts a scenario's `plugins: [{id, command}]`
/// entry.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(5)
    )
    let host = CommandPluginHost()
    for plugin in CountingPluginKind.available {
        registerTickBenchmark(plugin, host: host)
        registerTapBenchmark(plugin, host: host)
    }
}

/// Ten simulated seconds of a 60 Hz display link, every tick delivered to the plugin: a fresh
/// simulation per iteration, the plugin installed before the measurement starts.
private func registerTickBenchmark(_ plugin: CountingPluginKind, host: CommandPluginHost) {
    let seconds: Int64 = 10
    var configured: ConfiguredPlugin?
    Benchmark(
        "Remote plugin/10 s of ticks at 60 Hz/\(plugin.label)",
        configuration: .init(timeUnits: .microseconds, maxIterations: 200)
    ) { benchmark in
        if configured == nil { configured = try plugin.configured(subscribingTo: "tick", host: host) }
        let simulation = Simulation()  // the iPhone 5: 60 Hz
        try simulation.install(configured!)
        benchmark.startMeasurement()
        simulation.advance(by: VirtualTime(nanoseconds: seconds * 1_000_000_000))
        benchmark.stopMeasurement()
        try CountingPluginKind.expect(seconds * 60, in: simulation)
    }
}

/// One `tap` injected and delivered to the plugin (for the remote plugin, one `Deliver` round
/// trip), into one simulation kept for every iteration. The clock moves 1 ms between taps
/// (unmeasured): at one instant a remote plugin takes at most
/// `ScenarioLimits.remoteCallsAtOneInstant` calls, and the iterations outnumber it.
private func registerTapBenchmark(_ plugin: CountingPluginKind, host: CommandPluginHost) {
    var simulation: Simulation?
    var failures: FailureWatch?
    var taps: Int64 = 0
    Benchmark(
        "Remote plugin/one tap delivered/\(plugin.label)",
        configuration: .init(timeUnits: .nanoseconds, maxIterations: 100_000)
    ) { benchmark in
        if simulation == nil {
            let made = Simulation()
            try made.install(plugin.configured(subscribingTo: "tap", host: host))
            simulation = made
            failures = FailureWatch(made)
        }
        simulation!.advance(by: VirtualTime(nanoseconds: 1_000_000))
        benchmark.startMeasurement()
        try simulation!.inject(.tap(Tap(point: Point(x: 160, y: 284))))
        benchmark.stopMeasurement()
        try failures!.check()
        taps += 1
        try CountingPluginKind.expect(taps, in: simulation!)
    }
}

/// The `plugin.failed` events a simulation delivers: a plugin that fails is isolated and the
/// inject that made it fail succeeds, so a benchmark asks here whether its delivery was refused.
private final class FailureWatch {
    private var failure: PluginFailure?

    init(_ simulation: Simulation) {
        simulation.bus.subscribe(.name("plugin.failed"), owner: "benchmark") { [unowned self] delivered in
            if failure == nil, case .pluginFailed(let failed) = delivered.event { failure = failed }
        }
    }

    /// Throws the first plugin failure, if there was one: the delivery measured did not happen.
    func check() throws {
        if let failure { throw RemotePluginError("plugin '\(failure.plugin)' failed: \(failure.error)") }
    }
}

/// The implementations of one plugin that counts the events it subscribed to and has no effects.
private enum CountingPluginKind: CaseIterable {
    case swift, c, python

    /// The Benchmarks folder.
    static let benchmarks = URL(fileURLWithPath: #filePath).appending(path: "../../..").standardized

    /// The kinds this checkout can run: the Python one needs the repository's Python module.
    static var available: [Self] {
        let module = benchmarks.appending(path: "../clients/python/rehearse/plugin.py").standardized.path
        return allCases.filter { $0 != .python || FileManager.default.fileExists(atPath: module) }
    }

    var label: String {
        switch self {
        case .swift: "Swift plugin"
        case .c: "C plugin over D-Bus"
        case .python: "Python plugin over D-Bus"
        }
    }

    /// The plugin subscribed to `event`, ready to install; the C one's program is started here.
    func configured(subscribingTo event: String, host: CommandPluginHost) throws -> ConfiguredPlugin {
        switch self {
        case .swift:
            return try PluginDescriptor(Counter.self).configured(["events": .array([.string(event)])])
        case .c:
            let folder = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .deletingLastPathComponent()
            return try start([folder.appending(path: "CountingPlugin").path, event], in: folder, host: host)
        case .python:
            let folder = Self.benchmarks.appending(path: "remote")
            return try start(["python3", folder.appending(path: "counting_plugin.py").path, event], in: folder, host: host)
        }
    }

    private func start(_ arguments: [String], in folder: URL, host: CommandPluginHost) throws -> ConfiguredPlugin {
        try host.start(PluginCommand(id: Counter.id, arguments: arguments, directory: folder.path)).configured()
    }

    /// Throws unless the plugin in `simulation` counted `deliveries`: what was measured is what the
    /// benchmark's name says.
    static func expect(_ deliveries: Int64, in simulation: Simulation) throws {
        let state = simulation.plugin(Counter.id)?.state
        guard state?["deliveries"] == .int(deliveries) else {
            throw RemotePluginError("expected \(deliveries) deliveries, the plugin's state is \(String(describing: state))")
        }
    }
}

/// The in-process twin of `CountingPlugin` (C): counts the events named in its configuration,
/// with no effects; its state is `{deliveries}`.
private final class Counter: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var events: [String] = []
    }

    static let id = "counter"
    static let summary = "counts the events it subscribed to, with no effects"
    static let defaultConfiguration = Configuration()

    private var deliveries: Int64 = 0

    init(configuration: Configuration, context: PluginContext) throws {
        for name in configuration.events {
            try context.on(named: name) { [unowned self] _ in deliveries += 1 }
        }
    }

    var state: Fields { ["deliveries": .int(deliveries)] }
}
