/// A scene a plugin ships, built like its original's screen: scenarios name it with `scene:`.
public struct ScenePreset: Sendable {
    /// The name scenarios use (`paper-login`).
    public let name: String
    /// One line on what it holds.
    public let summary: String
    /// Adds the preset's nodes to an empty scene (sized for the device).
    public let build: @Sendable (Scene) throws -> Void

    public init(name: String, summary: String, build: @escaping @Sendable (Scene) throws -> Void) {
        self.name = name
        self.summary = summary
        self.build = build
    }
}
