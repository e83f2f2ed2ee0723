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
    /// An event the plugin subscribed to.
    func deliver(_ delivered: DeliveredEvent) throws -> RemoteAnswer
    /// A `schedule` effect's time came (`details` empty), or an `animate` effect's animations
    /// ended (`details` is `{finished}`).
    func wake(tag: String, at time: VirtualTime, details: Fields) throws -> RemoteAnswer
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

    public init(id: String, summary: String, events: [EventDescription], subscriptions: [String], configuration: Fields) {
        self.id = id
        self.summary = summary
        self.events = events
        self.subscriptions = subscriptions
        self.configuration = configuration
    }
}

extension PluginDescriptor {
    /// Describes the remote plugin `declaration`, reached through `channel`: each instance is a
    /// ``RemotePlugin`` that calls it.
    public init(remote declaration: RemotePluginDeclaration, channel: any RemotePluginChannel) {
        let subscriptions = declaration.subscriptions
        self.init(id: declaration.id, summary: declaration.summary, events: declaration.events,
                  defaultConfiguration: declaration.configuration) { configuration in
            { context in
                try RemotePlugin(subscriptions: subscriptions, configuration: configuration, channel: channel, context: context)
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
