import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseScenario
import RehearseSession

/// `CreateSession`'s `a{sv}` set-up, read and checked: `scenario` (s, scenario text: its device,
/// scene and plugins; its steps are not run), or `device` (s) and `plugins` (as); `mode` (s); and
/// `share` (b).
struct SessionSetup {
    static let keys: Set<String> = ["scenario", "device", "plugins", "mode", "share"]

    let scenario: Scenario
    /// Nil: the service's own mode.
    let mode: ClockMode?
    /// Whether clients other than the creator may call the session and get its signals; by
    /// default a session is its creator's alone.
    let shared: Bool

    init(_ fields: Fields, registry: PluginRegistry) throws(MethodFailure) {
        if let unknown = fields.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw MethodFailure(
                SimulatorError.invalidArgs,
                "CreateSession takes no '\(unknown)' (it takes \(Self.keys.sorted().joined(separator: ", ")))")
        }
        switch fields["share"] {
        case nil: shared = false
        case .bool(let value)?: shared = value
        default: throw MethodFailure(SimulatorError.invalidArgs, "share is true or false (b)")
        }
        mode = try fields["mode"].map { value throws(MethodFailure) in
            guard case .string(let text) = value, let mode = ClockMode(rawValue: text) else {
                throw MethodFailure(SimulatorError.invalidArgs, "mode is one of realtime, manual, virtual")
            }
            return mode
        }
        let loader = ScenarioLoader(registry: registry)
        if let text = fields["scenario"] {
            guard fields["device"] == nil, fields["plugins"] == nil else {
                throw MethodFailure(
                    SimulatorError.invalidArgs, "give the device and plugins in the scenario, or device and plugins without one")
            }
            guard case .string(let yaml) = text else { throw MethodFailure(SimulatorError.invalidArgs, "scenario is text (s)") }
            scenario = try Self.loading { () throws(ScenarioError) in try loader.load(data: Data(yaml.utf8), file: "session") }
            return
        }
        var device: String?
        if let value = fields["device"] {
            guard case .string(let text) = value else { throw MethodFailure(SimulatorError.invalidArgs, "device is text (s)") }
            device = text
        }
        var plugins: [String] = []
        if let value = fields["plugins"] {
            guard case .array(let items) = value else {
                throw MethodFailure(SimulatorError.invalidArgs, "plugins is a list of ids (as)")
            }
            for item in items {
                guard case .string(let id) = item else {
                    throw MethodFailure(SimulatorError.invalidArgs, "plugins is a list of ids (as)")
                }
                plugins.append(id)
            }
        }
        scenario = try Self.loading { () throws(ScenarioError) in
            try loader.loadSetup(device: device, plugins: plugins, name: "session")
        }
    }

    /// The session this set-up describes, on `defaultMode` unless it names a mode.
    func makeSession(registry: PluginRegistry, defaultMode: ClockMode) throws(MethodFailure) -> SimulatorSession {
        do {
            return try SimulatorSession(setup: scenario, registry: registry, mode: mode ?? defaultMode)
        } catch {
            throw MethodFailure(SimulatorError.invalidScenario, "\(error)")
        }
    }

    private static func loading(_ load: () throws(ScenarioError) -> Scenario) throws(MethodFailure) -> Scenario {
        do {
            return try load()
        } catch {
            throw MethodFailure(SimulatorError.invalidScenario, "\(error)")
        }
    }
}
