import Foundation
import Testing

/// `rehearse serve --atspi` on a private session bus whose `org.a11y.Bus` is at-spi2-core's own
/// bus launcher (activated on demand, with its registry), driven by clients nobody here wrote:
/// pyatspi (`atspi_client.py`) and gdbus.
@Suite(.serialized) struct AccessibilityBusTests {
    static let client = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/atspi_client.py").path
    static let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/login-animator/keyboard-lifts-form.yaml").path
    /// The scenario's name: the application's.
    static let application = "The Paper login form lifts while the keyboard is up (the seed's constants)"

    /// A private session bus that starts at-spi2-core's bus launcher when asked for `org.a11y.Bus`,
    /// through `launcher.py`: the launcher's accessibility bus in the bus's folder (its socket is
    /// `$XDG_RUNTIME_DIR/at-spi/bus`, the user's own otherwise), and SIGTERM unblocked (test
    /// threads block it, and their children inherit that), so that the launcher, which ends once
    /// the session bus is gone, ends its bus daemon too, and the registry with it.
    static func accessibilityBus() throws -> PrivateBus {
        let bus = try PrivateBus()
        let launcher = bus.folder.appendingPathComponent("launcher.py")
        let script = """
            #!/usr/bin/python3
            import os, signal
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.environ["XDG_RUNTIME_DIR"] = \(String(reflecting: bus.folder.path))
            os.execv("/usr/libexec/at-spi-bus-launcher", ["at-spi-bus-launcher"])

            """
        try Data(script.utf8).write(to: launcher)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
        let service = "[D-BUS Service]\nName=org.a11y.Bus\nExec=\(launcher.path)\n"
        try Data(service.utf8).write(to: bus.folder.appendingPathComponent("data/dbus-1/services/org.a11y.Bus.service"))
        return bus
    }

    /// Runs the pyatspi client (Debian's python3, which has pyatspi) with `arguments`, on the
    /// accessibility bus the session bus names (not one the test's environment may name).
    static func pyatspi(_ arguments: [String], on bus: PrivateBus) throws -> CommandResult {
        try bus.run("/usr/bin/env", ["-u", "AT_SPI_BUS_ADDRESS", "/usr/bin/python3", client] + arguments)
    }

    @Test func pyatspiFindsTheLoginFormAndClickingTheUsernameFieldRaisesTheKeyboard() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let tree = try Self.pyatspi(["tree", Self.application], on: bus)
        #expect(tree.output == """
            application: \(Self.application) []
              frame: \(Self.application) [enabled, sensitive, showing, visible] (0, 0, 320, 568)
                heading: Paper [enabled, sensitive, showing, visible] (138, 120, 45, 21)
                text: Username [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 241, 280, 30)
                panel:  [enabled, sensitive, showing, visible] (20, 279, 280, 1)
                password text: Password [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 288, 280, 30)

            """, "\(tree.errorOutput)")
        let click = try Self.pyatspi(["click", Self.application, "text", "Username"], on: bus)
        #expect(click.output == """
            actions: ['click', 'press']
            done: True
            event: object:state-changed:focused detail1=1 on text: Username
            states: editable, enabled, focusable, focused, sensitive, showing, single line, visible

            """, "\(click.errorOutput)")
        // The tap reached the simulation: the field is first responder and the keyboard rises.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'username'>,)\n")
        let keyboard = try bus.gdbus("org.rehearse.Simulator1.WaitUntil", ["keyboard.visible == true", "1"])
        #expect(keyboard.errorOutput.isEmpty && keyboard.status == 0, "\(keyboard.errorOutput)")
    }
}
