/// A plugin threw while handling an event and has been isolated. (Rare: its field form is its
/// `Codable` form.)
public struct PluginFailure: DeclaredPayload, Codable {
    public static let payloadFields = PayloadFields(.required("plugin", String.self), .required("error", String.self))

    public var plugin: String
    public var error: String

    public init(plugin: String, error: String) {
        self.plugin = plugin
        self.error = error
    }
}

extension EventKind where Payload == PluginFailure {
    public static var pluginFailed: Self { Self(.pluginFailed) { if case .pluginFailed(let p) = $0 { p } else { nil } } }
}

/// An invariant stopped holding: its name, who declared it (`scenario` or a plugin id), and the
/// values on both sides (`actual`: the checked side; `expected`: what it had to satisfy). (Rare:
/// its field form is its `Codable` form.)
public struct InvariantFailure: DeclaredPayload, Codable {
    public static let payloadFields = PayloadFields(
        .required("name", String.self), .required("owner", String.self), .required("actual", String.self),
        .required("expected", String.self))

    public var name: String
    public var owner: String
    public var actual: String
    public var expected: String

    public init(name: String, owner: String, actual: String, expected: String) {
        self.name = name
        self.owner = owner
        self.actual = actual
        self.expected = expected
    }
}

extension EventKind where Payload == InvariantFailure {
    public static var invariantFailed: Self {
        Self(.invariantFailed) { if case .invariantFailed(let p) = $0 { p } else { nil } }
    }
}
