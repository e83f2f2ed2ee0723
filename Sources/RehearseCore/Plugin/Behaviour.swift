/// A behaviour plugin once made: attached to a simulation, with state that paths can read.
public protocol BehaviourInstance: AnyObject {
    /// Subscribes to events and sets up the scene through `context`. Throwing refuses the install.
    func attach(to context: BehaviourContext) throws
    /// The state a path `PLUGIN.KEY` reads, or `nil` for a key the plugin does not have.
    func state(forKey key: String) -> FieldValue?
    /// The keys ``state(forKey:)`` answers, for listings and did-you-mean hints.
    var stateKeys: [String] { get }
}

/// A behaviour plugin: an id, a summary, a `Codable` configuration whose defaults are the
/// original's, and the events it adds to the vocabulary.
public protocol Behaviour: BehaviourInstance, SendableMetatype {
    /// The configuration, decoded from the field form with defaults filled in.
    associatedtype Configuration: Codable, Sendable, Equatable

    /// The id scenarios and D-Bus use (`login-animator`).
    static var id: String { get }
    /// One line on what the plugin does.
    static var summary: String { get }
    /// The original's settings.
    static var defaultConfiguration: Configuration { get }
    /// The events the plugin emits or listens for that are not built in.
    static var events: [EventDescription] { get }
    /// The scene the plugin ships (the original's screen), if any.
    static var scene: ScenePreset? { get }

    /// Makes the plugin with `configuration`.
    init(configuration: Configuration)
}

extension Behaviour {
    public static var events: [EventDescription] { [] }
    public static var scene: ScenePreset? { nil }
}

extension BehaviourInstance {
    public func state(forKey key: String) -> FieldValue? { nil }
    public var stateKeys: [String] { [] }
}
