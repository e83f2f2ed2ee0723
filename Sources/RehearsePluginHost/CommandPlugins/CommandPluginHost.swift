import Foundation
import RehearseCore
import RehearseScenario
import Synchronization

/// Starts command plugins (docs/remote-plugins.md) for one program's run, each on its own private
/// peer-to-peer address, and ends them all when told to or when it goes.
public final class CommandPluginHost: PluginCommandStarter {
    private let started = Mutex<[PluginConnection]>([])
    /// Every program started, connected or not, the private folders made for them (by plugin id)
    /// and not yet removed, and whether the programs are being ended for good (then nothing more
    /// is started).
    private let launched = Mutex<(processes: [PluginProcess], folders: [(id: String, path: String)], ending: Bool)>(
        ([], [], false))
    /// Whether ``endBeforeExit()`` has run: held while it runs, so that a second caller waits for it.
    private let ended = Mutex(false)

    public init() {}

    /// Makes this program the subreaper of its descendants (`PR_SET_CHILD_SUBREAPER`), so that a
    /// process a plugin program leaves behind outside its process group, whose parent ended,
    /// becomes this program's child and is ended with the plugins, instead of living on as
    /// init's. Only for a program that starts no children but its plugin programs (the `rehearse`
    /// tool): every other child it gets after the first plugin program starts is taken for such
    /// an orphan (those it had before, and their descendants, are left alone). Returns false,
    /// changing nothing, if the system refuses.
    @discardableResult
    public static func adoptOrphans() -> Bool {
        PluginDescendants.adoptOrphans()
    }

    deinit {
        stopAll()
    }

    /// Starts `command`'s program with `REHEARSE_PLUGIN_ADDRESS` and `REHEARSE_PLUGIN_ID`, waits up
    /// to ``ScenarioLimits/remoteStartSeconds`` for it to connect and register, and describes it
    /// (with the command's `reads` after its own; ``RemoteReadsError`` if it takes none).
    public func start(_ command: PluginCommand) throws -> PluginDescriptor {
        let deadline = ContinuousClock.now + .seconds(ScenarioLimits.remoteStartSeconds)
        try Self.checkDirectory(of: command)
        let listener = try PluginListener()
        // Registered and spawned under the lock that ending takes first: a program is either on
        // the list that is ended, or never started.
        let process = try launched.withLock { launched throws(PluginStartError) in
            guard !launched.ending else { throw PluginStartError("the program is exiting: plugin '\(command.id)' not started") }
            launched.folders.append((command.id, listener.folder))
            let process = try PluginProcess(
                command: command.arguments, directory: command.directory,
                environment: ["REHEARSE_PLUGIN_ADDRESS": listener.address, "REHEARSE_PLUGIN_ID": command.id])
            launched.processes.append(process)
            return process
        }
        let connection = PluginConnection(
            connection: try listener.connection(from: process, id: command.id, until: deadline),
            process: process, id: command.id, deadline: .seconds(command.deadline))
        started.withLock { $0.append(connection) }
        let declaration = try connection.awaitRegistration(until: deadline)
        return PluginDescriptor(remote: try declaration.adding(reads: command.reads), channel: connection)
    }

    /// Throws unless `command`'s directory is a folder (links followed, nothing opened, so a FIFO
    /// cannot hold the start): `env -C` would say it only as its exit status, 125.
    private static func checkDirectory(of command: PluginCommand) throws(PluginStartError) {
        var status = stat()
        let reason: String
        if stat(command.directory, &status) != 0 {
            reason = String(cString: strerror(errno))
        } else if status.st_mode & S_IFMT == S_IFDIR {
            return
        } else {
            reason = status.st_mode & S_IFMT == S_IFREG ? "a file" : "a FIFO, device or socket"
        }
        throw PluginStartError(
            "plugin '\(command.id)' cannot start: its directory \(command.directory) is not a folder (\(reason))")
    }

    /// Ends every program started so far, together (one grace period for all): their connections
    /// closed first, then their process groups and descendants ended, then their private folders
    /// removed. They are forgotten, so that a host that starts programs for run after run
    /// (`run --watch`) ends each run's when it is over and holds nothing of them after.
    public func stopAll() {
        for connection in started.withLock({ started in
            defer { started = [] }
            return started
        }) { connection.close() }
        PluginProcess.stop(
            launched.withLock { launched in
                defer { launched.processes = [] }
                return launched.processes
            })
        removeFolders()
    }

    /// Removes the private folders of the programs started, with what they left in them, once the
    /// programs and their descendants have ended; says on standard error which stays, and why.
    private func removeFolders() {
        for folder in launched.withLock({ launched in
            defer { launched.folders = [] }
            return launched.folders
        }) {
            do {
                try FolderRemoval.remove(folder.path)
            } catch {
                FileHandle.standardError.write(
                    Data("rehearse: plugin '\(folder.id)' left its private folder \(folder.path): \(error)\n".utf8))
            }
        }
    }

    /// Ends every program started so far, from any thread, without waiting for a call under way,
    /// removes their private folders, and starts nothing after: for a program about to exit on
    /// SIGINT or SIGTERM, whose run will not get to ``stopAll()``. It runs once; a second caller
    /// returns when the first is done.
    public func endBeforeExit() {
        ended.withLock { ended in
            guard !ended else { return }
            ended = true
            let processes = launched.withLock { launched in
                launched.ending = true
                return launched.processes
            }
            PluginProcess.stop(processes)
            removeFolders()
        }
    }
}
