import Foundation
import Synchronization
import RehearseCore
import RehearseScenario

/// Starts command plugins (docs/remote-plugins.md) for one program's run, each on its own private
/// peer-to-peer address, and ends them all when told to or when it goes.
public final class CommandPluginHost: PluginCommandStarter {
    private let started = Mutex<[PluginConnection]>([])
    /// Every program started, connected or not, and the private folders of the starts under way.
    private let launched = Mutex<(processes: [PluginProcess], folders: Set<String>)>(([], []))

    public init() {}

    deinit {
        stopAll()
    }

    /// Starts `command`'s program with `REHEARSE_PLUGIN_ADDRESS` and `REHEARSE_PLUGIN_ID`, waits up
    /// to ``ScenarioLimits/remoteStartSeconds`` for it to connect and register, and describes it.
    public func start(_ command: PluginCommand) throws -> PluginDescriptor {
        let deadline = ContinuousClock.now + .seconds(ScenarioLimits.remoteStartSeconds)
        let listener = try PluginListener()
        let folder = listener.folder
        launched.withLock { _ = $0.folders.insert(folder) }
        defer { launched.withLock { _ = $0.folders.remove(folder) } }
        let process = try PluginProcess(command: command.arguments, directory: command.directory,
                                        environment: ["REHEARSE_PLUGIN_ADDRESS": listener.address, "REHEARSE_PLUGIN_ID": command.id])
        launched.withLock { $0.processes.append(process) }
        let connection = PluginConnection(connection: try listener.connection(from: process, id: command.id, until: deadline),
                                          process: process, id: command.id, deadline: .seconds(command.deadline))
        started.withLock { $0.append(connection) }
        let declaration = try connection.awaitRegistration(until: deadline)
        return PluginDescriptor(remote: declaration, channel: connection)
    }

    /// Ends every program started so far.
    public func stopAll() {
        for connection in started.withLock({ $0 }) { connection.stop() }
    }

    /// Ends every program started so far, from any thread, without waiting for a call under way,
    /// and removes the private folders of the starts under way: for a program about to exit on
    /// SIGINT or SIGTERM, whose run will not get to ``stopAll()``.
    public func endBeforeExit() {
        let (processes, folders) = launched.withLock { ($0.processes, $0.folders) }
        for process in processes { process.stop() }
        for folder in folders { PluginListener.remove(folder) }
    }
}
