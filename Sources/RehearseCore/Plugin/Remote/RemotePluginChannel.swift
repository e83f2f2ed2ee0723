/// What a remote plugin answers to each call: the effects, applied in order, and its whole state
/// (what `PLUGIN.KEY` paths read until the next answer).
public struct RemoteAnswer: Hashable, Sendable {
    public var effects: [RemoteEffect]
    public var state: Fields

    public init(effects: [RemoteEffect] = [], state: Fields = [:]) {
        self.effects = effects
        self.state = state
    }
}

/// The way to a plugin that runs in another program (docs/remote-plugins.md): one call per
/// install, delivered event and wake-up, each answered before the simulation goes on. A call that
/// throws isolates the plugin as a throwing Swift plugin is isolated.
public protocol RemotePluginChannel: AnyObject, Sendable {
    /// A new instance for one simulation, with its configuration (defaults with overrides on top).
    func install(configuration: Fields) throws -> RemoteAnswer
    /// An event the plugin subscribed to, with the values of the paths it reads (path to value),
    /// or nil for a plugin that registered without `reads` (the call without that argument).
    func deliver(_ delivered: DeliveredEvent, reads: Fields?) throws -> RemoteAnswer
    /// A `schedule` effect's time came (`details` empty), or an `animate` effect's animations
    /// ended (`details` is `{finished}`); `reads` as for ``deliver(_:reads:)``.
    func wake(tag: String, at time: VirtualTime, details: Fields, reads: Fields?) throws -> RemoteAnswer
}

/// Who a remote plugin says it is when it registers.
public struct RemotePluginDeclaration: Hashable, Sendable {
    /// The id scenarios use.
    public var id: String
    /// One line on what it does.
    public var summary: String
    /// The events it defines.
    public var events: [EventDescription]
    /// The names of the events it wants delivered.
    public var subscriptions: [String]
    /// Its configuration's defaults.
    public var configuration: Fields
    /// The scene paths whose values come with every `Deliver` and `Wake`; nil when it registered
    /// without them, and so takes calls without that argument (docs/remote-plugins.md, "Reads").
    public var reads: [String]?

    public init(
        id: String, summary: String, events: [EventDescription], subscriptions: [String], configuration: Fields,
        reads: [String]? = nil
    ) {
        self.id = id
        self.summary = summary
        self.events = events
        self.subscriptions = subscriptions
        self.configuration = configuration
        self.reads = reads
    }

    /// This declaration with the scenario's `reads` after its own (a path both name is read once):
    /// throws if there are some and it registered without `reads`, or if there are more than
    /// ``ScenarioLimits/remoteReads`` in all.
    public func adding(reads added: [String]) throws(RemoteReadsError) -> Self {
        guard !added.isEmpty else { return self }
        guard let own = reads else { throw .notNegotiated(plugin: id) }
        var all = own
        for path in added where !all.contains(path) { all.append(path) }
        guard all.count <= ScenarioLimits.remoteReads else { throw .tooMany(plugin: id, count: all.count) }
        var declaration = self
        declaration.reads = all
        return declaration
    }
}

/// A remote plugin's `reads` that cannot be read: what the scenario or the plugin declared is wrong.
public enum RemoteReadsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The scenario gives reads to a plugin that registered without them.
    case notNegotiated(plugin: String)
    /// More paths, its own and the scenario's, than ``ScenarioLimits/remoteReads``.
    case tooMany(plugin: String, count: Int)
    /// A path that reads nothing in the scene the plugin is installed in.
    case unreadable(plugin: String, PathError)

    public var description: String {
        switch self {
        case .notNegotiated(let plugin):
            "plugin '\(plugin)' registered without reads (RegisterPlugin's sixth argument), so it takes none from the scenario"
        case .tooMany(let plugin, let count):
            "plugin '\(plugin)' reads \(count) paths; a plugin reads at most \(ScenarioLimits.remoteReads) (ScenarioLimits.remoteReads)"
        case .unreadable(let plugin, let error):
            "plugin '\(plugin)' reads \(error)"
        }
    }
}

extension PluginDescriptor {
    /// Describes the remote plugin `declaration`, reached through `channel`: each instance is a
    /// ``RemotePlugin`` that calls it.
    public init(remote declaration: RemotePluginDeclaration, channel: any RemotePluginChannel) {
        let subscriptions = declaration.subscriptions
        let reads = declaration.reads
        self.init(
            id: declaration.id, summary: declaration.summary, events: declaration.events,
            defaultConfiguration: declaration.configuration
        ) { configuration in
            { context in
                try RemotePlugin(
                    subscriptions: subscriptions, reads: reads, configuration: configuration, channel: channel,
                    context: context)
            }
        }
    }
}

/// A remote plugin's failure: what it answered, or failed to answer, and why that isolates it.
public struct RemotePluginError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
