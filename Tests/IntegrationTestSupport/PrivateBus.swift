import Foundation

/// A private `dbus-daemon` for one test, with its own configuration and socket in a temporary
/// folder (no system or user bus needed), and `rehearse serve` processes on it. Its clients'
/// `XDG_DATA_HOME` is the folder's `data/`, whose `dbus-1/services/` the daemon activates from.
package final class PrivateBus {
    package let folder: URL
    package let address: String
    private var processes: [Process] = []

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        address = "unix:path=\(folder.path)/bus.sock"
        let services = folder.appendingPathComponent("data/dbus-1/services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(services.path)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let file = folder.appendingPathComponent("bus.conf")
        try Data(configuration.utf8).write(to: file)
        // Not --fork: a forked daemon would keep the test's pipes open.
        let daemon = try start(URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--config-file=\(file.path)", "--nofork"])
        let socket = folder.appendingPathComponent("bus.sock").path
        var attempts = 0
        while !FileManager.default.fileExists(atPath: socket) {
            attempts += 1
            guard attempts < 250, daemon.isRunning else { throw BusSetupError("dbus-daemon did not start") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit {
        // SIGKILL: helpers started from a test thread inherit its blocked SIGTERM.
        for process in processes.reversed() where process.isRunning { stop(process) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Kills a helper (dbus-daemon, dbus-monitor). Not waited for: Foundation notices the exit
    /// late here, and a killed helper has nothing more to write.
    package func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Sends SIGTERM to `process` and waits for it to end (``waitForExit(_:)``); how long that took.
    @discardableResult
    package static func terminate(_ process: Process) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        process.terminate()
        waitForExit(process)
        return clock.now - start
    }

    /// Waits up to 5 s for `process` to end, polling (`waitUntilExit` was seen to hang here).
    package static func waitForExit(_ process: Process) {
        var attempts = 0
        while process.isRunning, attempts < 500 {
            attempts += 1
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// The environment for a client of this bus.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        return environment
    }

    /// Starts `rehearse serve --address …` with `arguments` (its error output in the folder's
    /// file `errorOutput`, if given) and waits until the name is owned.
    @discardableResult
    package func serve(_ arguments: [String], name: String = "org.rehearse.Simulator", errorOutput: String? = nil) throws
        -> Process
    {
        let process = try start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--address", address] + arguments, errorOutput: errorOutput)
        var attempts = 0
        while try !hasOwner(name) {
            attempts += 1
            guard attempts < 250, process.isRunning else { throw BusSetupError("rehearse serve did not take \(name)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return process
    }

    /// Starts `rehearse serve --no-bus --listen unix:path=FOLDER/peer.sock` with `arguments`, its
    /// error output in `serve.log`, and waits until it listens. Returns the process and the address.
    package func servePeersOnly(_ arguments: [String]) throws -> (process: Process, address: String, socket: String) {
        let socket = folder.appendingPathComponent("peer.sock").path
        let address = "unix:path=\(socket)"
        let process = try start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--no-bus", "--listen", address] + arguments, output: "serve.out", errorOutput: "serve.log")
        // Its ready line, not the socket file: libdbus makes the file everyone's (mode 0777) after
        // it listens, and the service makes it its user's alone before it says it is ready.
        guard waitFor("ready: peers at \(address)", in: "serve.out", seconds: 10) else {
            throw BusSetupError("rehearse serve --no-bus did not listen: \(contents(of: "serve.log"))")
        }
        return (process, address, socket)
    }

    /// Starts a long-running program on this bus; its output (and error output) go to files in the folder.
    package func start(_ executable: URL, _ arguments: [String], output: String? = nil, errorOutput: String? = nil) throws
        -> Process
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = try sink(output)
        process.standardError = try sink(errorOutput)
        try process.run()
        processes.append(process)
        return process
    }

    /// A new file named `name` in the bus's folder to write a stream to, or nowhere without a name.
    private func sink(_ name: String?) throws -> FileHandle {
        guard let name else { return FileHandle.nullDevice }
        let file = folder.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        return try FileHandle(forWritingTo: file)
    }

    /// Runs a client program to the end.
    package func run(_ program: String, _ arguments: [String]) throws -> CommandResult {
        try Rehearse.launch(URL(fileURLWithPath: program), arguments, environment: environment)
    }

    /// The events of a `--trace` file as a client prints its `Event` signals: one
    /// `{"fields", "name", "seq", "time"}` JSON line each, keys sorted, the time a number.
    package func eventLines(ofTrace trace: URL) throws -> String {
        let normalise = """
            import json, sys
            for line in open(sys.argv[1]):
                event = json.loads(line)
                print(json.dumps({"seq": event["seq"], "time": float(event["time"]), "name": event["name"], "fields": event["fields"]}, sort_keys=True))
            """
        return try run("/usr/bin/env", ["python3", "-c", normalise, trace.path]).output
    }

    package func hasOwner(_ name: String) throws -> Bool {
        let result = try run(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                "string:\(name)",
            ])
        return result.output.contains("boolean true")
    }

    /// `gdbus call` on the simulator.
    package func gdbus(_ method: String, _ arguments: [String] = []) throws -> CommandResult {
        try run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.rehearse.Simulator", "--object-path",
                "/org/rehearse/Simulator", "--method", method,
            ] + arguments)
    }

    package func contents(of file: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }

    /// Waits until `file` holds `text` (a program's readiness line, an expected output), for at
    /// most `seconds`; whether it came.
    package func waitFor(_ text: String, in file: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if contents(of: file).contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }
}

package struct BusSetupError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
