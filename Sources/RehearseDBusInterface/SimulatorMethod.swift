/// The methods of `org.rehearse.Simulator1`, once: their arguments (names and D-Bus types, in and
/// out) and whether they change state. Dispatch, the signature check, the read-only rule and the
/// introspection XML all come from this table.
package enum SimulatorMethod: String, CaseIterable {
    case inject = "Inject"
    case injectAt = "InjectAt"
    case injectStrings = "InjectStrings"
    case advance = "Advance"
    case loadScenario = "LoadScenario"
    case reset = "Reset"
    case get = "Get"
    case snapshot = "Snapshot"
    case listPlugins = "ListPlugins"
    case configure = "Configure"
    case createSession = "CreateSession"
    case close = "Close"
    case record = "Record"
    case registerPlugin = "RegisterPlugin"
    case settle = "Settle"
    case waitUntil = "WaitUntil"
    case gesture = "Gesture"
    case isVisible = "IsVisible"

    /// One argument: its name and D-Bus type.
    package struct Argument {
        package let name: String
        package let type: String
    }

    /// The arguments the caller sends, in order.
    package var inputs: [Argument] {
        switch self {
        case .inject: [Argument(name: "name", type: "s"), Argument(name: "fields", type: "a{sv}")]
        case .injectAt:
            [Argument(name: "time", type: "d"), Argument(name: "name", type: "s"), Argument(name: "fields", type: "a{sv}")]
        case .injectStrings: [Argument(name: "name", type: "s"), Argument(name: "fields", type: "a{ss}")]
        case .advance: [Argument(name: "seconds", type: "d")]
        case .settle: [Argument(name: "timeout", type: "d")]
        case .waitUntil: [Argument(name: "condition", type: "s"), Argument(name: "timeout", type: "d")]
        case .gesture: [Argument(name: "kind", type: "s"), Argument(name: "arguments", type: "a{sv}")]
        case .isVisible: [Argument(name: "query", type: "v")]
        case .loadScenario: [Argument(name: "yaml", type: "s")]
        case .get: [Argument(name: "path", type: "s")]
        case .reset, .snapshot, .listPlugins: []
        case .configure: [Argument(name: "plugin", type: "s"), Argument(name: "settings", type: "a{sv}")]
        case .createSession: [Argument(name: "setup", type: "a{sv}")]
        case .close: []
        case .record: [Argument(name: "name", type: "s")]
        case .registerPlugin:
            [
                Argument(name: "id", type: "s"), Argument(name: "summary", type: "s"), Argument(name: "events", type: "a(sss)"),
                Argument(name: "subscriptions", type: "as"), Argument(name: "configuration", type: "a{sv}"),
            ]
        }
    }

    /// What the reply carries.
    package var outputs: [Argument] {
        switch self {
        case .inject, .injectAt, .injectStrings: [Argument(name: "sequence", type: "t")]
        case .advance, .settle, .waitUntil, .gesture: [Argument(name: "now", type: "d")]
        case .isVisible: [Argument(name: "visible", type: "b"), Argument(name: "why", type: "s")]
        case .get: [Argument(name: "value", type: "v")]
        case .snapshot: [Argument(name: "json", type: "s")]
        case .listPlugins: [Argument(name: "plugins", type: "a(ssb)")]
        case .createSession: [Argument(name: "session", type: "o")]
        case .record: [Argument(name: "file", type: "s")]
        case .loadScenario, .reset, .configure, .close, .registerPlugin: []
        }
    }

    /// The arguments a caller may add after ``inputs``: `RegisterPlugin`'s `reads`, as a command
    /// plugin's registration takes them (docs/remote-plugins.md, "Reads"). The introspection
    /// shows ``inputs`` alone.
    package var optionalInputs: [Argument] {
        self == .registerPlugin ? [Argument(name: "reads", type: "as")] : []
    }

    /// The signature a call must have.
    package var signature: String { inputs.map(\.type).joined() }

    /// The signatures a call may have: ``signature``, and with ``optionalInputs`` if there are any.
    package var signatures: [String] {
        optionalInputs.isEmpty ? [signature] : [signature, signature + optionalInputs.map(\.type).joined()]
    }

    /// Whether a read-only service refuses it.
    package var changesState: Bool {
        switch self {
        case .get, .snapshot, .listPlugins, .isVisible: false
        case .inject, .injectAt, .injectStrings, .advance, .loadScenario, .reset, .configure, .createSession, .close, .record,
            .registerPlugin, .settle, .waitUntil, .gesture:
            true
        }
    }

    /// Whether it uses the object's simulation. Those that do not (`CreateSession`) are answered
    /// at once, even while the default session is busy with a long `Advance`; the others wait for
    /// their turn in the session's order, but for those that change no state, which another
    /// caller's long `Advance` answers between its slices (``SimulatorObject/onlyReads(interface:member:)``).
    package var usesSimulation: Bool {
        self != .createSession
    }

    /// The method's `<method>` element.
    package var introspection: String {
        let arguments = inputs.map { ($0, "in") } + outputs.map { ($0, "out") }
        guard !arguments.isEmpty else { return "    <method name=\"\(rawValue)\"/>\n" }
        return "    <method name=\"\(rawValue)\">\n"
            + arguments.map { "      <arg name=\"\($0.0.name)\" type=\"\($0.0.type)\" direction=\"\($0.1)\"/>\n" }.joined()
            + "    </method>\n"
    }
}
