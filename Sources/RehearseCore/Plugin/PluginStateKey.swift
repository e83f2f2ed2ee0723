/// One key of a plugin's ``Plugin/state``, as the plugin declares it for `rehearse plugins
/// --verbose` and the docs: what it means, and the values it takes when they are a few names.
public struct PluginStateKey: Sendable, Equatable {
    public let name: String
    public let summary: String
    /// The values it takes, when they are names (`phase`: editing, submitting, ...); empty otherwise.
    public let values: [String]

    public init(_ name: String, _ summary: String, values: [String] = []) {
        self.name = name
        self.summary = summary
        self.values = values
    }
}
