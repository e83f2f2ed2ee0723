import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import Testing

@testable import RehearsePluginHost

/// Examples/RemotePlugins/undo_shake.py written as a Swift plugin, line for line: the same
/// configuration, event, state and calls, so that the two must give the same trace.
private final class SwiftUndoShake: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var threshold = 2.0
        var cooldown = 1.0
        var node = "title"
    }

    struct UndoRequested: PluginEvent, Codable {
        static let name = "undo.requested"
        static let fieldSummary = "magnitude"
        static let summary = "undo-shake, when the device is shaken hard enough"
        var magnitude: Double
    }

    static let id = "undo-shake"
    static let summary = "asks to undo when the device is shaken"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [UndoRequested.self]

    private var shakes = 0
    private var quietUntil = 0.0

    init(configuration: Configuration, context: PluginContext) throws {
        let alpha = "\(configuration.node).alpha"
        context.on(.motion) { [unowned self] sample in
            guard let acceleration = sample.userAcceleration, context.now.seconds >= quietUntil else { return }
            let magnitude = (acceleration.x * acceleration.x + acceleration.y * acceleration.y + acceleration.z * acceleration.z)
                .squareRoot()
            guard magnitude > configuration.threshold else { return }
            shakes += 1
            quietUntil = context.now.seconds + configuration.cooldown
            try context.emit(UndoRequested(magnitude: magnitude))
            try context.animate(
                AnimationParameters(duration: 0.15, curve: .easeOut),
                changes: {
                    try context.setValue(0.3, at: alpha)
                },
                completion: { _ in
                    try context.animate(
                        AnimationParameters(duration: 0.15, curve: .easeIn), changes: { try context.setValue(1.0, at: alpha) })
                })
        }
    }

    var state: Fields { ["shakes": .int(Int64(shakes))] }
}

/// Issue 28's first test: the same behaviour as a Swift plugin and as a remote plugin (Python,
/// and C with libdbus) gives byte-identical traces on the same scenario.
@Suite struct RemotePluginTraceTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/RemotePlugins")

    /// The trace of the example's scenario `scenario` with `plugins:` replaced by `plugins`.
    static func trace(
        plugins: String, registry: PluginRegistry = shippedPlugins, folder: URL = examples,
        scenario: String = "undo-shake.yaml"
    ) throws -> [String] {
        let example = try String(contentsOf: examples.appendingPathComponent(scenario), encoding: .utf8)
        let start = try #require(example.range(of: "plugins:\n"))
        let end = try #require(example.range(of: "steps:\n"))
        let text = example.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "plugins:\n\(plugins)\n")
        let file = folder.appendingPathComponent(".trace-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let host = CommandPluginHost()
        defer { host.stopAll() }
        var runner = ScenarioRunner(registry: registry)
        runner.commandStarter = host
        var lines: [String] = []
        let result = runner.run(file: file.path) { lines.append($0.traceLine) }
        if case .passed = result.outcome {} else { Issue.record("\(result.outcome)") }
        return lines
    }

    @Test func pythonAndSwiftGiveTheSameTrace() throws {
        let swift = try Self.trace(
            plugins: "  undo-shake: {threshold: 2}",
            registry: PluginRegistry(shippedPlugins.descriptors + [PluginDescriptor(SwiftUndoShake.self)]))
        let python = try Self.trace(
            plugins: "  - {id: undo-shake, command: [python3, undo_shake.py], configuration: {threshold: 2}}")
        #expect(swift.count > 20)
        #expect(swift.contains { $0.contains("undo.requested") })
        #expect(python == swift)
    }

    /// Issue 39's: a pull-to-refresh that reads the list's inset and offset (`reads`) and holds the
    /// content open (`target-offset`) gives, in Python, the trace of its Swift twin.
    @Test func aPullToRefreshThatReadsTheSceneGivesItsSwiftTwinsTrace() throws {
        let registry = PluginRegistry(shippedPlugins.descriptors + [PluginDescriptor(SwiftPullToRefresh.self)])
        let swift = try Self.trace(plugins: "  - pull-to-refresh", registry: registry, scenario: "pull-to-refresh.yaml")
        let python = try Self.trace(
            plugins: "  - {id: pull-to-refresh, command: [python3, pull_to_refresh.py]}",
            scenario: "pull-to-refresh.yaml")
        #expect(swift.contains { $0.contains("refresh.began") })
        #expect(swift.contains { $0.contains("refresh.ended") })
        #expect(python == swift)
    }
}
