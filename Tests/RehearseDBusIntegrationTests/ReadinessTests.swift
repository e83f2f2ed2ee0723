import Foundation
import IntegrationTestSupport
import Testing

/// How a program knows `rehearse serve` is there to call: the readiness line, `--ready-fd`, bus
/// activation, and what it says when there is no bus at all.
@Suite(.serialized) struct ReadinessTests {
    private static let tap =
        #"gdbus call --session --dest org.rehearse.Simulator --object-path /org/rehearse/Simulator --method org.rehearse.Simulator1.Inject tap "{'target': <'username'>}""#

    /// A call made the moment the line arrives is answered: the line comes after the name is owned
    /// (the issue's `gdbus call` right after `rehearse serve &` got `ServiceUnknown` 4 times in 4).
    @Test func aCallMadeOnTheReadinessLineIsAnswered() throws {
        let bus = try PrivateBus()
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        let script = """
            cd '\(bus.folder.path)' && mkfifo ready
            '\(rehearse)' serve --address '\(bus.address)' --mode manual --plugins login-animator --ready-fd 3 3>ready >stdout.txt &
            read -r line < ready
            echo "$line"
            \(Self.tap)
            kill $!
            """
        let result = try bus.run("/bin/bash", ["-c", script])
        #expect(
            result.output == """
                ready: org.rehearse.Simulator on \(bus.address) (manual clock)
                (uint64 1,)

                """, "\(result.errorOutput)")
        #expect(bus.contents(of: "stdout.txt") == "ready: org.rehearse.Simulator on \(bus.address) (manual clock)\n")
    }

    /// Under systemd (`Type=notify`), readiness is `READY=1` sent to `NOTIFY_SOCKET`; a Python
    /// datagram socket stands in for systemd here.
    @Test func systemdIsToldWhenTheServiceIsReady() throws {
        let bus = try PrivateBus()
        let script = """
            import os, socket, subprocess, sys
            path = sys.argv[1] + "/notify.sock"
            receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            receiver.bind(path)
            receiver.settimeout(10)
            serve = subprocess.Popen([sys.argv[2], "serve", "--address", sys.argv[3], "--mode", "manual"],
                                     env=dict(os.environ, NOTIFY_SOCKET=path), stdout=subprocess.DEVNULL)
            message = receiver.recv(4096).decode()
            owned = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                    "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                                    "org.rehearse.Simulator"], capture_output=True, text=True).stdout.strip()
            serve.terminate()
            serve.wait()
            print(message.splitlines()[0], owned, serve.returncode)
            """
        let result = try bus.run(
            "/usr/bin/env",
            [
                "python3", "-c", script, bus.folder.path,
                Rehearse.productsFolder.appendingPathComponent("rehearse").path, bus.address,
            ])
        #expect(result.output == "READY=1 (true,) 0\n", "\(result.errorOutput)")
    }

    @Test func theReadinessLineNamesThePeerAddressTheServerChose() throws {
        let bus = try PrivateBus()
        let process = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--no-bus", "--listen", "unix:tmpdir=\(bus.folder.path)"], output: "stdout.txt")
        var attempts = 0
        while !bus.contents(of: "stdout.txt").hasSuffix("\n"), attempts < 250, process.isRunning {
            attempts += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
        let line = bus.contents(of: "stdout.txt")
        #expect(line.hasPrefix("ready: peers at unix:path=\(bus.folder.path)/dbus-"), "\(line)")
        #expect(line.hasSuffix(" (realtime clock)\n"))
        // The address as printed is one a client connects to.
        let address = String(line.dropFirst("ready: peers at ".count).dropLast(" (realtime clock)\n".count))
        let result = try bus.run(
            "/usr/bin/gdbus",
            [
                "call", "--address", address, "--dest", "org.rehearse.Simulator", "--object-path", "/org/rehearse/Simulator",
                "--method", "org.rehearse.Simulator1.Get", "keyboard.visible",
            ])
        #expect(result.output == "(<false>,)\n", "\(result.errorOutput)")
    }

    /// The activation file makes the bus daemon start `rehearse serve` on the first call, with the
    /// options given at install time (manual clock, the login animator).
    @Test func activationStartsTheServiceOnTheFirstCall() throws {
        let bus = try PrivateBus()
        #expect(try !bus.hasOwner("org.rehearse.Simulator"))
        let install = try bus.run(
            Rehearse.productsFolder.appendingPathComponent("rehearse").path,
            ["install-dbus-service", "--mode", "manual", "--plugins", "login-animator"])
        let file = bus.folder.appendingPathComponent("data/dbus-1/services/org.rehearse.Simulator.service").path
        #expect(install.output == "wrote \(file)\n", "\(install.errorOutput)")
        let text = bus.contents(of: "data/dbus-1/services/org.rehearse.Simulator.service")
        #expect(text.hasPrefix("[D-BUS Service]\nName=org.rehearse.Simulator\nExec=/"))
        #expect(text.hasSuffix(" serve --name org.rehearse.Simulator --mode manual --plugins login-animator\n"))
        // The daemon was started before the file existed: it looks again for a name it does not know.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"]).output == "(uint64 1,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.0>,)\n", "manual clock")
        #expect(try bus.hasOwner("org.rehearse.Simulator"))
    }

    @Test func anInvalidSetUpIsRefusedAtInstallTime() throws {
        let bus = try PrivateBus()
        let install = try bus.run(
            Rehearse.productsFolder.appendingPathComponent("rehearse").path,
            ["install-dbus-service", "--plugins", "login-animatr"])
        #expect(install.status == 2)
        #expect(install.errorOutput.contains("login-animatr"))
        #expect(
            !FileManager.default.fileExists(
                atPath: bus.folder.appendingPathComponent("data/dbus-1/services/org.rehearse.Simulator.service").path))
    }

    @Test func withoutASessionBusServeSaysWhatToDo() throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR"] { environment[name] = nil }
        let result = try Rehearse.launch(
            Rehearse.productsFolder.appendingPathComponent("rehearse"), ["serve", "--mode", "manual"],
            environment: environment)
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("there is no session bus here"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("dbus-run-session -- "))
        #expect(result.errorOutput.contains("rehearse serve --no-bus --listen unix:path="))
        #expect(result.output.isEmpty, "no readiness line")
    }
}
