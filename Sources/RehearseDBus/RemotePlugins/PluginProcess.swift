import Foundation

/// A command plugin's program, started for one run: its arguments looked up on `PATH` as a shell
/// would, run in the scenario file's folder with standard input closed and its output sent to
/// standard error, and ended (SIGTERM, then SIGKILL after ``gracePeriod``) when the run is done.
final class PluginProcess: @unchecked Sendable {
    /// How long a program has to exit once asked to.
    static let gracePeriod: Duration = .seconds(1)

    private let process = Process()
    /// The process id: a connection that claims to be this plugin must come from it.
    let pid: pid_t

    /// Starts `command` (program and arguments) in `directory` with `environment` added to this
    /// program's. Throws if it cannot be started.
    init(command: [String], directory: String, environment: [String: String]) throws(PluginStartError) {
        // `env` finds the program on PATH, then becomes it: the process id stays the one started.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--"] + command
        process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw PluginStartError("cannot start \(command.joined(separator: " ")): \(error.localizedDescription)")
        }
        pid = process.processIdentifier
    }

    /// Whether the program is still running.
    var isRunning: Bool { process.isRunning }

    /// How the program ended, for messages: `exited with status 1`, `was killed by signal 9`.
    var ending: String {
        guard !process.isRunning else { return "is running" }
        return process.terminationReason == .exit
            ? "exited with status \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
    }

    /// Ends the program: SIGTERM, and SIGKILL if it is still running after ``gracePeriod``.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + Self.gracePeriod
        while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
    }
}

/// Why a command plugin could not be started or did not register: the set-up is wrong.
public struct PluginStartError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
