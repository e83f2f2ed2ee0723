import RehearseCore

// The events a login form and an authenticator exchange. Neither plugin owns them: the login
// animator emits `login.submit` and listens for the answer, the gateway answers. Both list these
// types, declared once here, so plugins that never import each other agree on names and fields.

/// The user pressed Go: the form asks to log `username` in.
public struct LoginSubmit: PluginEvent, Codable {
    public static let name = "login.submit"
    public static let fieldSummary = "username"
    public static let summary = "the login form (login-animator), on Go"

    public var username: String

    public init(username: String) {
        self.username = username
    }
}

/// The authenticator accepted `username`.
public struct LoginSucceeded: PluginEvent, Codable {
    public static let name = "login.succeeded"
    public static let fieldSummary = "username"
    public static let summary = "the authenticator (gateway), when it accepts a login"

    public var username: String

    public init(username: String) {
        self.username = username
    }
}

/// The authenticator refused `username`, saying why.
public struct LoginFailed: PluginEvent, Codable {
    public static let name = "login.failed"
    public static let fieldSummary = "username, reason?"
    public static let summary = "the authenticator (gateway), when it refuses a login"

    public var username: String
    public var reason: String?

    public init(username: String, reason: String? = nil) {
        self.username = username
        self.reason = reason
    }
}
