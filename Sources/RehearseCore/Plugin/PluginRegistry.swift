/// A plugin's description without its type: what listings show and what makes an instance.
public struct PluginDescriptor: Sendable {
    /// The id scenarios and D-Bus use.
    public let id: String
    /// One line on what the plugin does.
    public let summary: String
    /// The plugin-defined events it emits or listens for, as Swift types.
    public let eventTypes: [any PluginEvent.Type]
    /// The plugin-defined events it declared without Swift types (a remote plugin's).
    public let untypedEvents: [EventDescription]
    /// The scene the plugin ships, if any.
    public let scene: ScenePreset?
    /// The original's configuration in field form.
    public let defaultConfiguration: Fields
    /// The case names of every configuration key that is an enum of strings, by dotted path.
    public let configurationChoices: [String: [String]]
    /// The dotted paths of the configuration's durations (``Plugin/durations``).
    public let configurationDurations: [String]
    /// The form of each top-level configuration key's value, found from its type (what a
    /// mapping that is empty by default holds: a gateway's `sections`, booleans).
    public let configurationShapes: [String: FieldShape]
    /// The keys of the plugin's state, as it declares them.
    public let stateKeys: [PluginStateKey]
    /// Decodes a configuration (defaults with overrides on top) into what makes an instance.
    private let configure: @Sendable (Fields) throws -> @Sendable (PluginContext) throws -> any PluginInstance

    /// Describes the plugin type `type`.
    public init<P: Plugin>(_ type: P.Type) {
        id = P.id
        summary = P.summary
        eventTypes = P.events
        untypedEvents = []
        scene = P.scene
        stateKeys = P.stateKeys
        defaultConfiguration = FieldCodec.fields(of: P.defaultConfiguration)
        configurationChoices = CaseNames.choices(in: P.defaultConfiguration)
        configurationDurations = P.durations
        configurationShapes = FieldShapeProbe.shapes(of: P.Configuration.self)
        configure = { overrides in
            let configuration = try FieldCodec.configuration(
                P.Configuration.self, defaults: P.defaultConfiguration, overrides: overrides)
            return { context in try P(configuration: configuration, context: context) }
        }
    }

    /// Describes a plugin that has no Swift type (a remote plugin): `make` is given the
    /// configuration (defaults with overrides on top, checked key by key against the defaults) and
    /// returns what makes an instance in a context.
    public init(
        id: String, summary: String, events: [EventDescription], defaultConfiguration: Fields,
        make: @escaping @Sendable (Fields) throws -> @Sendable (PluginContext) throws -> any PluginInstance
    ) {
        self.id = id
        self.summary = summary
        eventTypes = []
        untypedEvents = events
        scene = nil
        stateKeys = []
        self.defaultConfiguration = defaultConfiguration
        configurationChoices = [:]
        configurationDurations = []
        configurationShapes = [:]
        configure = { overrides in try make(try FieldCodec.merged(defaults: defaultConfiguration, overrides: overrides)) }
    }

    /// The vocabulary lines of the plugin's events.
    public var events: [EventDescription] { eventTypes.map { $0.eventDescription } + untypedEvents }

    /// The plugin with the defaults and `overrides` on top, decoded once: a simulation built
    /// again and again from one set-up (exploration) installs it without decoding it again.
    /// Throws what is wrong with the configuration.
    public func configured(_ overrides: Fields = [:]) throws -> ConfiguredPlugin {
        ConfiguredPlugin(descriptor: self, overrides: overrides, make: try configure(overrides))
    }
}

/// A registered plugin with its configuration decoded: what ``Simulation/install(_:)`` makes an
/// instance from.
public struct ConfiguredPlugin: Sendable {
    public let descriptor: PluginDescriptor
    /// The configuration as given, on top of the defaults.
    public let overrides: Fields
    let make: @Sendable (PluginContext) throws -> any PluginInstance
}

/// The plugins a program knows, by id, in the order they were registered.
public struct PluginRegistry: Sendable {
    /// Every plugin, in registration order.
    public let descriptors: [PluginDescriptor]

    /// Creates a registry of `descriptors`, whose ids must be unique: two plugins with one id are
    /// a program's mistake, and stop it here (`RehearseCommand.main` says so before it gets here).
    public init(_ descriptors: [PluginDescriptor]) {
        var seen: Set<String> = []
        for descriptor in descriptors {
            precondition(seen.insert(descriptor.id).inserted, "two plugins have the id '\(descriptor.id)'")
        }
        self.descriptors = descriptors
    }

    /// The plugin with `id`, if registered.
    public subscript(id: String) -> PluginDescriptor? {
        descriptors.first { $0.id == id }
    }

    /// Every scene the plugins ship.
    public var scenes: [ScenePreset] { descriptors.compactMap(\.scene) }

    /// Every plugin-defined event, each once, in registration order: for listings.
    public var events: [EventDescription] {
        var seen: Set<String> = []
        return descriptors.flatMap(\.events).filter { seen.insert($0.name).inserted }
    }

    /// The form of each field of each plugin-defined event with a Swift type, by event name (what
    /// the JSON Schema checks a file's fields against); an event or field not listed may hold any value.
    public var eventFieldShapes: [String: [String: FieldShape]] {
        Dictionary(descriptors.flatMap(\.eventTypes).map { ($0.name, $0.fieldShapes) }) { first, _ in first }
    }
}
