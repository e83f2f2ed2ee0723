/// A plugin's description without its type: what listings show and what makes an instance.
public struct BehaviourDescriptor: Sendable {
    public let id: String
    public let summary: String
    public let events: [EventDescription]
    /// The scene the plugin ships, if any.
    public let scene: ScenePreset?
    /// The original's configuration in field form.
    public let defaultConfiguration: Fields
    private let make: @Sendable (Fields) throws(FieldError) -> any BehaviourInstance

    /// Describes the plugin type `type`.
    public init<B: Behaviour>(_ type: B.Type) {
        id = B.id
        summary = B.summary
        events = B.events
        scene = B.scene
        defaultConfiguration = ConfigurationCodec.fields(of: B.defaultConfiguration)
        make = { overrides throws(FieldError) in
            B(configuration: try ConfigurationCodec.configuration(
                B.Configuration.self, defaults: B.defaultConfiguration, overrides: overrides))
        }
    }

    /// Makes an instance configured with the defaults and `overrides` on top.
    public func makeInstance(overrides: Fields = [:]) throws(FieldError) -> any BehaviourInstance {
        try make(overrides)
    }
}

/// The plugins a program knows, by id, in the order they were registered.
public struct BehaviourRegistry: Sendable {
    /// Every plugin, in registration order.
    public let descriptors: [BehaviourDescriptor]

    /// Creates a registry of `descriptors`; ids must be unique (a later duplicate is dropped).
    public init(_ descriptors: [BehaviourDescriptor]) {
        var seen: Set<String> = []
        self.descriptors = descriptors.filter { seen.insert($0.id).inserted }
    }

    /// The plugin with `id`, if registered.
    public subscript(id: String) -> BehaviourDescriptor? {
        descriptors.first { $0.id == id }
    }

    /// Every scene the plugins ship.
    public var scenes: [ScenePreset] { descriptors.compactMap(\.scene) }
}
