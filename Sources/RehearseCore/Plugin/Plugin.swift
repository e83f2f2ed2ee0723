/// A behaviour plugin: an id, a summary, a `Codable` configuration whose defaults are the
/// original's, the events it defines or shares, and an initialiser that sets it up in its context.
///
/// ```swift
/// final class TapCounter: Plugin {
///     struct Configuration: Codable, Sendable, Equatable { var step = 1 }
///     static let id = "tap-counter"
///     static let summary = "counts taps"
///     static let defaultConfiguration = Configuration()
///
///     private var count = 0
///
///     init(configuration: Configuration, context: PluginContext) throws {
///         context.on(.tap) { [unowned self] _ in count += configuration.step }
///     }
///
///     var state: Fields { ["count": .int(Int64(count))] }
/// }
/// ```
public protocol Plugin: PluginInstance, SendableMetatype {
    /// The configuration, decoded from the field form with the defaults filled in.
    associatedtype Configuration: Codable, Sendable, Equatable

    /// The id scenarios and D-Bus use (`login-animator`).
    static var id: String { get }
    /// One line on what the plugin does.
    static var summary: String { get }
    /// The original's settings.
    static var defaultConfiguration: Configuration { get }
    /// The plugin-defined events it emits or listens for: its own, and those it shares with other
    /// plugins through a common module (the login events). The built-in events need no listing.
    static var events: [any PluginEvent.Type] { get }
    /// The scene the plugin ships (the original's screen), if any.
    static var scene: ScenePreset? { get }
    /// The keys of ``state``, each with what it means and, when they are names, its values.
    static var stateKeys: [PluginStateKey] { get }
    /// The dotted paths of the configuration's numbers that are durations in seconds, 0 to
    /// ``ScenarioLimits/runSeconds``: the plugin checks them with ``checkDurations(_:in:)``, and the
    /// JSON Schema bounds them.
    static var durations: [String] { get }

    /// Sets the plugin up in `context`: subscribes, resolves node handles, changes the scene.
    /// Throwing refuses the install and drops whatever it subscribed.
    init(configuration: Configuration, context: PluginContext) throws
}

/// An installed plugin, whatever made it: a ``Plugin`` type's instance or a remote plugin's stand-in.
public protocol PluginInstance: AnyObject {
    /// The plugin's state, read by paths `PLUGIN.KEY` (nested mappings: `PLUGIN.KEY.SUBKEY`).
    var state: Fields { get }
}

extension Plugin {
    public static var events: [any PluginEvent.Type] { [] }
    public static var scene: ScenePreset? { nil }
    public static var stateKeys: [PluginStateKey] { [] }
    public static var durations: [String] { [] }
    public var state: Fields { [:] }

    /// Throws, naming the path, unless each of ``durations`` in `configuration` is a duration
    /// (``VirtualTime/duration(_:field:)``).
    public static func checkDurations(_ configuration: Configuration) throws(FieldError) {
        let fields = FieldValue.dictionary(FieldCodec.fields(of: configuration))
        for path in durations {
            let value = path.split(separator: ".").reduce(Optional(fields)) { value, key in
                if case .dictionary(let entries)? = value { entries[String(key)] } else { nil }
            }
            _ = try VirtualTime.duration(value?.number ?? .nan, field: path)
        }
    }

    /// ``checkDurations(_:)``, once per set-up built again and again (an exploration's worker,
    /// ``SetupMemo``): its configuration is the same every time, and encoding it to read the
    /// durations was a quarter of the login flow's set-up.
    public static func checkDurations(_ configuration: Configuration, in context: PluginContext) throws(FieldError) {
        guard let memo = context.setupMemo else { return try checkDurations(configuration) }
        guard !memo.durationsChecked.contains(context.pluginID) else { return }
        try checkDurations(configuration)
        memo.durationsChecked.insert(context.pluginID)
    }
}
