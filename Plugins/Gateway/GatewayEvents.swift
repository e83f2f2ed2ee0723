import RehearseCore

/// A request to log out.
public struct Logout: PluginEvent, Codable {
    public static let name = "logout"
    public static let fieldSummary = ""
    public static let summary = "injected: log out"

    public init() {}
}

/// The gateway embedded another child.
public struct GatewayChanged: PluginEvent, Codable {
    public static let name = "gateway.changed"
    public static let fieldSummary = "status, child"
    public static let summary = "gateway, when the embedded child changed"

    /// `loggedOut` or `loggedIn`.
    public var status: String
    /// The id of the child now embedded.
    public var child: String

    public init(status: String, child: String) {
        self.status = status
        self.child = child
    }
}

/// A request to show a configured section.
public struct GatewayNavigate: PluginEvent, Codable {
    public static let name = "gateway.navigate"
    public static let fieldSummary = "section"
    public static let summary = "injected: show a section"

    public var section: String

    public init(section: String) {
        self.section = section
    }
}
