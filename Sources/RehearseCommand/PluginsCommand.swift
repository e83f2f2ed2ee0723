import ArgumentParser
import RehearseCore
import RehearsePluginHost
import RehearseScenario

/// `rehearse plugins`: ids, summaries and configuration keys with their defaults; with
/// `--verbose`, also each plugin's events, state keys and how its scene starts. Given scenario
/// files, the command plugins they start, as each declares itself once started.
struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the behaviour plugins with their scenes and configuration keys (with defaults).")

    @Flag(
        name: .shortAndLong,
        help: "Also list each plugin's events, its state keys with their values, and its scene's starting values.")
    var verbose = false

    @Argument(
        help: "Scenario files: list the command plugins they start (docs/remote-plugins.md) instead, as each declares itself.")
    var files: [String] = []

    func run() throws {
        guard files.isEmpty else { return try listCommandPlugins() }
        if Tool.registry.descriptors.isEmpty { print("no plugins are registered in this build") }
        for descriptor in Tool.registry.descriptors {
            list(descriptor)
            if verbose { try describe(descriptor) }
        }
    }

    /// Starts the command plugins of each file and lists them; exit code 2 if a file cannot be loaded.
    private func listCommandPlugins() throws {
        let host = CommandPluginHost()
        StopSignal.endingPlugins(of: host)
        defer { host.stopAll() }
        var failed = false
        for file in files {
            do {
                let scenario = try ScenarioLoader(registry: Tool.registry, commandStarter: host).load(file: file)
                if scenario.remotePlugins.isEmpty { print("\(file): starts no command plugins") }
                for started in scenario.remotePlugins {
                    list(started.descriptor)
                    if verbose { listEvents(of: started.descriptor) }
                }
            } catch {
                print(TerminalText.escape("\(error)"))
                failed = true
            }
        }
        if failed { throw ExitCode(2) }
    }

    /// The id, summary, scene and configuration defaults.
    private func list(_ descriptor: PluginDescriptor) {
        print(TerminalText.escape("\(descriptor.id): \(descriptor.summary)"))
        if let scene = descriptor.scene { print("  scene \(scene.name): \(scene.summary)") }
        if verbose { print("  configuration (defaults):") }
        let indent = verbose ? "    " : "  "
        for key in descriptor.defaultConfiguration.keys.sorted() {
            print(TerminalText.escape("\(indent)\(key): \(descriptor.defaultConfiguration[key]?.jsonText ?? "")"))
        }
    }

    private func listEvents(of descriptor: PluginDescriptor) {
        if !descriptor.events.isEmpty { print("  events:") }
        for event in descriptor.events { print(TerminalText.escape("    \(event.name) {\(event.fields)}: \(event.summary)")) }
    }

    /// Events, state keys, and the state and scene a default install starts with (on the default
    /// device, the plugin's own scene): read from a simulation, not written by hand.
    private func describe(_ descriptor: PluginDescriptor) throws {
        listEvents(of: descriptor)
        let setup = try ScenarioLoader(registry: Tool.registry).loadSetup(device: nil, plugins: [descriptor.id])
        let simulation = try setup.makeSimulation(registry: Tool.registry)
        let state = simulation.plugin(descriptor.id)?.state ?? [:]
        if !descriptor.stateKeys.isEmpty { print("  state (\(descriptor.id).KEY), as it starts:") }
        for key in descriptor.stateKeys {
            let values = key.values.isEmpty ? "" : " (\(key.values.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: " | ")))"
            print("    \(key.name) = \(state[key.name]?.jsonText ?? "null")\(values): \(key.summary)")
        }
        guard descriptor.scene != nil else { return }
        print("  scene as it starts (\(setup.device.name), after the plugin set it up):")
        for id in simulation.scene.allIDs.dropFirst() {
            guard let node = simulation.scene[id] else { continue }
            var line = "    \(id) (\(node.kind.rawValue)) frame \(Self.numbers(node.frame.vector))"
            if node.kind == .scrollView {
                line +=
                    ", contentOffset \(Self.numbers(node.contentOffset.vector)), contentSize \(Self.numbers(node.contentSize.vector))"
            }
            if node.hidden { line += ", hidden" }
            if let label = node.accessibilityLabel { line += ", label \(FieldValue.string(label).jsonText)" }
            print(line)
        }
        let children = (try? simulation.value(at: "children"))??.jsonText ?? "[]"
        print("    children of the root: \(children)")
    }

    /// A frame, offset or size, to two decimals.
    private static func numbers(_ vector: SIMD4<Double>) -> String {
        "[" + (0..<4).map { ((vector[$0] * 100).rounded() / 100).shortDescription }.joined(separator: ", ") + "]"
    }
}
