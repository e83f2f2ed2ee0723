import ArgumentParser
import Foundation
import RehearseCore
import RehearseScenario

extension ClockMode: ExpressibleByArgument {}

/// What `rehearse serve` simulates and how: shared by `serve` and `install-dbus-service`, which
/// writes them into the command line the bus daemon starts.
struct ServeSetupOptions: ParsableArguments {
    @Option(
        help: "How time moves: realtime (paced to the wall clock), manual (only on Advance) or virtual (as fast as work comes).")
    var mode: ClockMode = .realtime

    @Option(help: "A device preset (when no scenario is given).")
    var device: String?

    @Option(help: "Set the simulation up from this scenario file (device, scene, plugins; its steps are not run).")
    var scenario: String?

    @Option(parsing: .upToNextOption, help: "Plugins to install (when no scenario is given).")
    var plugins: [String] = []

    @Flag(help: "Refuse every method that changes state.")
    var readOnly = false

    func validate() throws {
        guard scenario == nil || (device == nil && plugins.isEmpty) else {
            throw ValidationError("give the device and plugins in the scenario file, or --device and --plugins without one")
        }
    }

    /// The options as `serve` arguments, the scenario file's path made absolute.
    var arguments: [String] {
        var arguments = ["--mode", mode.rawValue]
        if let device { arguments += ["--device", device] }
        if let scenario { arguments += ["--scenario", URL(filePath: scenario).standardizedFileURL.path] }
        if !plugins.isEmpty { arguments += ["--plugins"] + plugins }
        if readOnly { arguments.append("--read-only") }
        return arguments
    }

    /// The scenario file, or one written from `--device` and `--plugins`; exits 2 with the
    /// loader's message when it is invalid. `commandStarter` starts the file's command plugins;
    /// without one a file that has any is refused.
    /// The scenario the viewer's timeline simulates again and again (nil without a file):
    /// `scenario`, or, when it starts command plugins, the file loaded again with an instance of
    /// each program of its own, so that the timeline never calls the live simulation's programs
    /// (a plugin answers one simulation at a time: docs/remote-plugins.md).
    func timelineScenario(beside scenario: Scenario, commandStarter: any PluginCommandStarter) throws -> Scenario? {
        guard self.scenario != nil else { return nil }
        guard !scenario.steps.isEmpty, scenario.remotePlugins.contains(where: { $0.command != nil }) else { return scenario }
        return try loadSetup(commandStarter: commandStarter)
    }

    func loadSetup(commandStarter: (any PluginCommandStarter)? = nil) throws -> Scenario {
        let loader = ScenarioLoader(registry: Tool.registry, commandStarter: commandStarter)
        do {
            if let scenario { return try loader.load(file: scenario) }
            return try loader.loadSetup(device: device, plugins: plugins)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
