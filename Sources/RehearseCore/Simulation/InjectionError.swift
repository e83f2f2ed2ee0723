/// An event that cannot be injected as given. Nothing has changed when this is thrown.
public enum InjectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is neither built in nor declared by an installed plugin.
    case unknownEvent(name: String, known: [String])
    /// A field names a node the scene does not have.
    case unknownNode(field: String, id: String)
    /// A field names a node that cannot take text input.
    case notATextInput(field: String, id: String)
    /// A time that is not a finite number of seconds, or that lies in the past.
    case invalidTime(String)
    /// An event whose fields its type does not accept: a plugin-defined event, or a built-in one
    /// a plugin built with values its payload's reader refuses.
    case invalidFields(name: String, FieldError)
    /// A touch or a gesture off the screen, a touch that does not fit the fingers down (a finger
    /// already down coming down again, one that is not down moving or lifting), or a gesture
    /// faster than ``ScenarioLimits/gestureVelocity``.
    case invalidTouch(String)
    /// Emitted while the event being delivered has caused ``ScenarioLimits/cascadeEvents``
    /// events already.
    case cascadeLimit
    /// Text that would make the field `target` hold more than ``ScenarioLimits/textLength``
    /// Unicode scalars.
    case textTooLong(target: String)

    public var description: String {
        switch self {
        case .unknownEvent(let name, let known): "unknown event '\(name)'\(Suggestion.hint(for: name, among: known))"
        case .unknownNode(let field, let id): "field '\(field)': no node with id '\(id)'"
        case .notATextInput(let field, let id): "field '\(field)': node '\(id)' does not take text input"
        case .invalidTime(let reason): reason
        case .invalidFields(let name, let error): "event '\(name)': \(error)"
        case .invalidTouch(let reason): reason
        case .cascadeLimit:
            "one event caused \(ScenarioLimits.cascadeEvents) events (ScenarioLimits.cascadeEvents, the limit) before time moved: an emit loop?"
        case .textTooLong(let target):
            "node '\(target)' would hold more than \(ScenarioLimits.textLength) Unicode scalars of text (ScenarioLimits.textLength, the limit)"
        }
    }
}

/// The placeholder secrets travel as.
public enum Redaction {
    /// Shown instead of a password or an API key in events, signals, traces and logs.
    public static let placeholder = "<redacted>"

    /// Secure text as a replay types it: one `•` for each character typed, so what behaviour can
    /// depend on (the length; an empty field's return key) stays, and the text does not.
    public static func masked(_ text: String) -> String {
        String(repeating: "•", count: text.count)
    }
}

/// A plugin that cannot be installed.
public enum PluginInstallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A plugin with this id is already installed.
    case duplicate(String)
    /// No registered plugin has this id.
    case unknown(String)
    /// A plugin subscribed by name to an event that is neither built in nor declared.
    case unknownEvent(plugin: String, name: String, known: [String])
    /// A plugin declared an event type under a name another type already has.
    case conflictingEvent(plugin: String, name: String)

    public var description: String {
        switch self {
        case .duplicate(let id): "plugin '\(id)' is already installed"
        case .unknown(let id): "no plugin '\(id)' is registered"
        case .unknownEvent(let plugin, let name, let known):
            "plugin '\(plugin)' subscribes to unknown event '\(name)'\(Suggestion.hint(for: name, among: known)); "
                + "subscribe to a built-in event, or to one a plugin declares"
        case .conflictingEvent(let plugin, let name):
            "plugin '\(plugin)' declares event '\(name)', which another event type already declares"
        }
    }
}
