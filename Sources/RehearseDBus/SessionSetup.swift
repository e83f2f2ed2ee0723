import Foundation
import RehearseCore
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
            throw MethodFailure(SimulatorError.invalidArgs,
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
                throw MethodFailure(SimulatorError.invalidArgs, "give the device and plugins in the scenario, or device and plugins without one")
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
            guard case .array(let items) = value else { throw MethodFailure(SimulatorError.invalidArgs, "plugins is a list of ids (as)") }
            for item in items {
                guard case .string(let id) = item else { throw MethodFailure(SimulatorError.invalidArgs, "plugins is a list of ids (as)") }
                plugins.append(id)
            }
        }
        scenario = try Self.loading { () throws(ScenarioError) in try loader.loadSetup(device: device, plugins: plugins, name: "session") }
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

/// What creates and closes sessions when an object is asked to: the service, which knows who
/// called and owns the sessions' lifetimes.
protocol SessionHost: AnyObject {
    /// Creates a session from `setup` (`CreateSession`'s argument) owned by the sender of `call`
    /// and returns its object path, or nil when the host answers `call` itself, later.
    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String?
    /// Ends the session at `path`.
    func closeSession(at path: String) throws(MethodFailure)
    /// `RegisterPlugin`: the caller of the call being answered is the plugin `declaration`.
    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure)
}
