import RehearseCore

/// A plugin that is a program (`plugins: [{id, command}]`, docs/remote-plugins.md): what starts it.
public struct PluginCommand: Hashable, Sendable {
    /// The id the scenario gives it.
    public var id: String
    /// The program and its arguments; the program is looked up on `PATH`.
    public var arguments: [String]
    /// Where it runs: the scenario file's folder.
    public var directory: String
    /// Seconds it has to answer each call.
    public var deadline: Double
    /// The scene paths the scenario has it read, after those it declares (`reads:`).
    public var reads: [String]

    public init(
        id: String, arguments: [String], directory: String, deadline: Double = ScenarioLimits.remoteDefaultDeadline,
        reads: [String] = []
    ) {
        self.id = id
        self.arguments = arguments
        self.directory = directory
        self.deadline = deadline
        self.reads = reads
    }
}

/// A remote plugin of a set-up: one a loader started from its command, or one that registered
/// with a session over D-Bus (no command), with what it registered as.
public struct RemotePluginEntry: Sendable {
    /// What started it; nil for a plugin that registered over D-Bus.
    public var command: PluginCommand?
    public var descriptor: PluginDescriptor

    public init(command: PluginCommand?, descriptor: PluginDescriptor) {
        self.command = command
        self.descriptor = descriptor
    }
}

/// Starts the programs of a scenario's command plugins and gives each, once it registered, as a
/// plugin description; they run until the starter stops them. A loader without one refuses a file
/// that names a command.
public protocol PluginCommandStarter: AnyObject, Sendable {
    /// Starts `command` and waits for it to register; throws what went wrong.
    func start(_ command: PluginCommand) throws -> PluginDescriptor
}
