import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse serve --atspi` on a private session bus whose `org.a11y.Bus` is at-spi2-core's own
/// bus launcher (activated on demand, with its registry), driven by clients nobody here wrote:
/// pyatspi (`atspi_client.py`) and gdbus.
@Suite(.serialized) struct AccessibilityBusTests {
    static let client = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/atspi_client.py").path
    static let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/login-animator/keyboard-lifts-form.yaml").path
    /// The scenario's name: the application's.
    static let application = "The Paper login form lifts while the keyboard is up (the original's constants)"

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
        #expect(
            tree.output == """
                application: \(Self.application) []
                  frame: \(Self.application) [enabled, sensitive, showing, visible] (0, 0, 320, 568)
                    heading: Paper [enabled, sensitive, showing, visible] (138, 120, 45, 21)
                    text: Username [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 241, 280, 30)
                    panel:  [enabled, sensitive, showing, visible] (20, 279, 280, 1)
                    password text: Password [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 288, 280, 30)

                """, "\(tree.errorOutput)")
        let click = try Self.pyatspi(["click", Self.application, "text", "Username"], on: bus)
        #expect(
            click.output == """
                actions: ['click', 'press', 'activate']
                done: True
                event: object:state-changed:focused detail1=1 on text: Username
                states: editable, enabled, focusable, focused, sensitive, showing, single line, visible

                """, "\(click.errorOutput)")
        // The tap reached the simulation: the field is first responder and the keyboard rises.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'username'>,)\n")
        let keyboard = try bus.gdbus("org.rehearse.Simulator1.WaitUntil", ["keyboard.visible == true", "1"])
        #expect(keyboard.errorOutput.isEmpty && keyboard.status == 0, "\(keyboard.errorOutput)")
    }

    /// gdbus on the accessibility bus: calls `method` (`interface.member`) on the object at `path`
    /// of the application the registry lists first.
    struct AccessibilityPeer {
        let bus: PrivateBus
        let address: String
        let application: String

        init(_ bus: PrivateBus) throws {
            self.bus = bus
            let reply = try bus.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                    "--method", "org.a11y.Bus.GetAddress",
                ]
            ).output
            address = String(reply.dropFirst("('".count).dropLast("',)\n".count))
            let children = try Self.call(
                bus, address, "org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                "org.a11y.atspi.Accessible.GetChildren"
            ).output
            application = children.split(separator: "'").first { $0.hasPrefix(":") }.map(String.init) ?? "none in \(children)"
        }

        private static func call(
            _ bus: PrivateBus, _ address: String, _ destination: String, _ path: String, _ method: String,
            _ arguments: [String] = []
        ) throws -> CommandResult {
            try bus.run(
                "/usr/bin/gdbus",
                [
                    "call", "--address", address, "--dest", destination, "--object-path", path,
                    "--method", method,
                ] + arguments)
        }

        /// The accessibility bus's daemon (the one at-spi2-core's bus launcher started).
        func daemon() throws -> pid_t {
            let reply = try Self.call(
                bus, address, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID", ["org.freedesktop.DBus"]
            ).output
            return try #require(pid_t(reply.dropFirst("(uint32 ".count).dropLast(",)\n".count)), "\(reply)")
        }

        /// The reply, or the error's name and message.
        func call(_ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
            let result = try Self.call(bus, address, application, path, method, arguments)
            return result.status == 0 ? result.output : result.errorOutput
        }
    }

    static let node = "/org/a11y/atspi/accessible/node/"

    @Test func readOnlyRefusesActionsAndBadCallsAreAnsweredWithNamedErrors() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--read-only", "--scenario", Self.scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        let answers = [
            try peer.call(Self.node + "username", "org.a11y.atspi.Action.DoAction", ["0"]),
            try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.InsertText", ["0", "vijay", "5"]),
            try peer.call(Self.node + "nosuch", "org.a11y.atspi.Accessible.GetRole"),
            try peer.call("/org/a11y/atspi/elsewhere", "org.a11y.atspi.Accessible.GetRole"),
            try peer.call("/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible.GetChildAtIndex", ["99"]),
            try peer.call(Self.node + "username", "org.a11y.atspi.Component.GetExtents", ["uint32 7"]),
            try peer.call(Self.node + "username", "org.a11y.atspi.Component.GetExtents", ["7"]),
            try peer.call(Self.node + "title", "org.a11y.atspi.Action.DoAction", ["0"]),
            try peer.call(Self.node + "title", "org.a11y.atspi.Accessible.Explode"),
            try peer.call(
                Self.node + "title", "org.freedesktop.DBus.Properties.Set", ["org.a11y.atspi.Accessible", "Name", "<'x'>"]),
        ]
        #expect(
            answers == [
                "Error: GDBus.Error:org.rehearse.Error.NotPermitted: the simulation is read-only (--read-only): DoAction (click) changes it\n",
                "Error: GDBus.Error:org.rehearse.Error.NotPermitted: the simulation is read-only (--read-only): InsertText changes it\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownObject: no accessible object at \(Self.node)nosuch: "
                    + "the scene has no visible node \"nosuch\" now\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownObject: no accessible object at /org/a11y/atspi/elsewhere: "
                    + "objects are /org/a11y/atspi/accessible/root and \(Self.node)ID\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: no child at index 99: the object has 1\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: coordinate type 7: 0 (screen), 1 (window) or 2 (parent)\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: GetExtents takes (u), not (i)\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownInterface: the object has no interface \"org.a11y.atspi.Action\"; "
                    + "it has org.a11y.atspi.Accessible, org.a11y.atspi.Component, org.a11y.atspi.Text\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: no method \"Explode\" in org.a11y.atspi.Accessible here\n",
                "Error: GDBus.Error:org.freedesktop.DBus.Error.PropertyReadOnly: Name is read-only\n",
            ])
        // Nothing changed, and the export still answers.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<''>,)\n")
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.Component.GetAccessibleAtPoint", ["30", "250", "uint32 0"])
                == "((\(peer.application.debugDescription.replacingOccurrences(of: "\"", with: "'")), objectpath '\(Self.node)username'),)\n"
        )
    }

    /// `Peer` and `Introspectable`, which every object has, answer `GetMachineId` as a D-Bus
    /// peer should, and any other member as an unknown method (both said the object had no such
    /// interface).
    @Test func everyObjectIsAPeerWithIntrospection() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        let machine = try bus.run("/usr/bin/dbus-uuidgen", ["--get"]).output  // libdbus's own tool
        #expect(try peer.call(Self.node + "username", "org.freedesktop.DBus.Peer.GetMachineId") == "('\(machine.dropLast())',)\n")
        #expect(
            try peer.call(Self.node + "username", "org.freedesktop.DBus.Peer.Explode")
                == "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: no method \"Explode\" in "
                + "org.freedesktop.DBus.Peer here\n")
        #expect(
            try peer.call("/org/a11y/atspi/accessible/root", "org.freedesktop.DBus.Introspectable.Explode")
                == "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: no method \"Explode\" in "
                + "org.freedesktop.DBus.Introspectable here\n")
    }

    @Test func textTypedThroughTheBusReachesTheFieldAndASecureFieldsTextNeverLeaves() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.InsertText", ["0", "vijay", "5"]) == "(true,)\n")
        #expect(try peer.call(Self.node + "password", "org.a11y.atspi.Component.GrabFocus") == "(true,)\n")
        #expect(
            try peer.call(Self.node + "password", "org.a11y.atspi.EditableText.InsertText", ["0", "hunter2", "7"]) == "(true,)\n")
        // Past the limits: a string argument's (64 KiB) and a field's text (10,000 Unicode scalars).
        let huge = String(repeating: "x", count: 70_000)
        let long = String(repeating: "x", count: 9_996)
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.InsertText", ["0", huge, "70000"])
                == "Error: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: InsertText: a string is 70000 bytes; the limit is 65536\n"
        )
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.InsertText", ["0", long, "9996"])
                == "Error: GDBus.Error:org.rehearse.Error.Limit: text: node 'username' would hold more than 10000 Unicode scalars of text "
                + "(ScenarioLimits.textLength, the limit)\n")
        // SetTextContents adds to the end; it neither deletes nor compares a secure field's text.
        #expect(try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.SetTextContents", ["vijay.s"]) == "(true,)\n")
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.SetTextContents", ["vi"])
                == "Error: GDBus.Error:org.rehearse.Error.NotPermitted: SetTextContents only adds to the end of a field's text "
                + "(the simulation types, it does not delete)\n")
        #expect(
            try peer.call(Self.node + "password", "org.a11y.atspi.EditableText.SetTextContents", ["hunter2x"])
                == "Error: GDBus.Error:org.rehearse.Error.NotPermitted: SetTextContents only adds to the end of a field's text "
                + "(the simulation types, it does not delete), and sets a secure field only while it is empty\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["username.text"]).output == "(<'vijay.s'>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'password'>,)\n")
        let tree = try Self.pyatspi(["tree", Self.application], on: bus)
        #expect(
            tree.output.contains("password text: Password [editable, enabled, focusable, focused,"),
            "\(tree.output)\(tree.errorOutput)")
        #expect(!tree.output.contains("hunter2"))
        let properties = try peer.call(
            Self.node + "password", "org.freedesktop.DBus.Properties.GetAll", ["org.a11y.atspi.Accessible"])
        #expect(properties.contains("'Name': <'Password'>") && !properties.contains("hunter2"), "\(properties)")
    }

    @Test func textTypedIsAnnouncedAndASecureFieldsTextOnlyMasked() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let username = try Self.pyatspi(["type", Self.application, "text", "Username", "vijay"], on: bus)
        #expect(
            username.output == "inserted: True\nevent: object:text-changed:insert at 0, 5 characters: vijay\n",
            "\(username.errorOutput)")
        let password = try Self.pyatspi(["type", Self.application, "password text", "Password", "hunter2"], on: bus)
        #expect(
            password.output == "inserted: True\nevent: object:text-changed:insert at 0, 7 characters: •••••••\n",
            "\(password.errorOutput)")
    }

    /// `Text` reads a field's text, a secure field's masked as its name and events keep it, and a label's.
    @Test func textReadsWhatWasTypedAndASecureFieldsTextOnlyMasked() throws {
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        _ = try peer.call(Self.node + "username", "org.a11y.atspi.EditableText.InsertText", ["0", "vijay", "5"])
        _ = try peer.call(Self.node + "password", "org.a11y.atspi.EditableText.InsertText", ["0", "hunter2", "7"])
        let texts = try [("text", "Username"), ("password text", "Password"), ("heading", "Paper")].map { role, name in
            try Self.pyatspi(["text", Self.application, role, name], on: bus)
        }
        #expect(
            texts.map(\.output) == [
                "'vijay', 5 characters, caret at 5\n", "'•••••••', 7 characters, caret at 7\n",
                "'Paper', 5 characters, caret at -1\n",
            ], "\(texts.map(\.errorOutput))")
        #expect(try peer.call(Self.node + "username", "org.a11y.atspi.Text.GetText", ["1", "3"]) == "('ij',)\n")
        #expect(try peer.call(Self.node + "username", "org.a11y.atspi.Text.GetText", ["4", "2"]) == "('',)\n")
        #expect(
            try peer.call(Self.node + "username", "org.a11y.atspi.Text.GetCharacterAtOffset", ["0"]) == "(118,)\n")
    }

    /// A scroll view's `scroll down` drags it by half its height (its drag on the clock from now,
    /// here a manual one that `Advance` moves on), and `scroll up` drags it back.
    @Test func aScrollViewScrolledByItsActions() throws {
        let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/touch/swipe-a-list.yaml").path
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        #expect(
            try peer.call(Self.node + "list", "org.a11y.atspi.Action.GetActions")
                == "([('scroll up', 'Drags the content down by half the view', ''), "
                + "('scroll down', 'Drags the content up by half the view', '')],)\n")
        #expect(try peer.call(Self.node + "list", "org.a11y.atspi.Action.DoAction", ["1"]) == "(true,)\n")
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        let down = try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output
        // 284 points, less the finger's travel before the pan begins (as UIKit's pan does).
        #expect(down == "(<268.22222222222223>,)\n", "\(down)")
        #expect(try peer.call(Self.node + "list", "org.a11y.atspi.Action.DoAction", ["0"]) == "(true,)\n")
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        let up = try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output
        #expect(up == "(<0.0>,)\n", "\(up)")
    }

    /// A bus serving, on a manual clock, a strip that scrolls across above a list.
    private static func stripAboveAList() throws -> PrivateBus {
        let bus = try accessibilityBus()
        let scenario = bus.folder.appendingPathComponent("strip.yaml")
        try Data(
            """
            name: A strip above a list
            scene:
              nodes:
                - {id: strip, kind: scrollView, frame: [0, 0, 320, 200], contentSize: [1280, 200], accessibilityLabel: Strip}
                - {id: list, kind: scrollView, frame: [0, 200, 320, 368], contentSize: [320, 2000], accessibilityLabel: List}
            steps: []

            """.utf8
        ).write(to: scenario)
        try bus.serve(["--mode", "manual", "--scenario", scenario.path, "--atspi"])
        return bus
    }

    /// A scroll view that scrolls across has `scroll left` and `scroll right` too, a drag of half
    /// its width (here on a manual clock that `Advance` moves on); one that does not, only `scroll
    /// up` and `scroll down`. pyatspi does them by name.
    @Test func aScrollViewThatScrollsAcrossScrollsSidewaysByItsActions() throws {
        let bus = try Self.stripAboveAList()
        let act = { (name: String, action: String) in
            try Self.pyatspi(["act", "A strip above a list", "scroll pane", name, action], on: bus)
        }
        let right = try act("Strip", "scroll right")
        #expect(
            right.output == "actions: ['scroll up', 'scroll down', 'scroll left', 'scroll right']\ndone: True\n",
            "\(right.errorOutput)")
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        let across = try bus.gdbus("org.rehearse.Simulator1.Get", ["strip.contentOffset.x"]).output
        // 160 points, less the finger's travel before the pan begins (as UIKit's pan does).
        #expect(across == "(<142.22222222222223>,)\n", "\(across)")
        #expect(try act("Strip", "scroll left").output.hasSuffix("done: True\n"))
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["strip.contentOffset.x"]).output == "(<0.0>,)\n")
        let list = try act("List", "scroll left")
        #expect(list.output == "actions: ['scroll up', 'scroll down']\nno action 'scroll left'\n", "\(list.errorOutput)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.x"]).output == "(<0.0>,)\n")
    }

    /// Two scroll actions done before the clock moves (`scroll right` on the strip, `scroll down`
    /// on the list) drag with two fingers, not one finger jumping between the views, and each
    /// finger is its own view's pan: both views scroll as each action alone scrolls its view.
    /// (Before, one touch sequence took both fingers and the list did not move.)
    @Test func twoScrollActionsBeforeTheClockMovesDragWithTwoFingers() throws {
        let bus = try Self.stripAboveAList()
        let peer = try AccessibilityPeer(bus)
        #expect(try peer.call(Self.node + "strip", "org.a11y.atspi.Action.DoAction", ["3"]) == "(true,)\n")
        #expect(try peer.call(Self.node + "list", "org.a11y.atspi.Action.DoAction", ["1"]) == "(true,)\n")
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        // Half the strip's width, less the finger's travel before the pan begins, as alone.
        let across = try bus.gdbus("org.rehearse.Simulator1.Get", ["strip.contentOffset.x"]).output
        #expect(across == "(<142.22222222222223>,)\n", "\(across)")
        let down = try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output

        let alone = try Self.stripAboveAList()
        #expect(try AccessibilityPeer(alone).call(Self.node + "list", "org.a11y.atspi.Action.DoAction", ["1"]) == "(true,)\n")
        _ = try alone.gdbus("org.rehearse.Simulator1.Advance", ["2"])
        let downAlone = try alone.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output
        #expect(downAlone != "(<0.0>,)\n" && down == downAlone, "\(down) \(downAlone)")
    }

    /// On its way out the application leaves the registry's desktop (`Socket.Unembed` with its
    /// root), as toolkits do, seen by dbus-monitor on the accessibility bus.
    @Test func theApplicationUnembedsOnItsWayOut() throws {
        let bus = try Self.accessibilityBus()
        let serve = try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi"])
        let peer = try AccessibilityPeer(bus)
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"), ["--address", peer.address, "member='Unembed'"],
            output: "monitor.out")
        #expect(bus.waitFor("member=NameLost", in: "monitor.out"), "\(bus.contents(of: "monitor.out"))")
        PrivateBus.terminate(serve)
        #expect(
            bus.waitFor(
                "sender=\(peer.application) -> destination=org.a11y.atspi.Registry serial=", in: "monitor.out"),
            "\(bus.contents(of: "monitor.out"))")
        #expect(
            bus.waitFor(
                "path=/org/a11y/atspi/accessible/root; interface=org.a11y.atspi.Socket; member=Unembed\n"
                    + "   struct {\n      string \"\(peer.application)\"\n      object path \"/org/a11y/atspi/accessible/root\"\n   }\n",
                in: "monitor.out"), "\(bus.contents(of: "monitor.out"))")
    }

    /// The issue's end: a dogtail script that never heard of Rehearse logs in through the tree,
    /// and what it did is what the simulation recorded (the password masked).
    @Test func aDogtailScriptLogsInThroughTheTreeAndTheRecordingHasWhatItDid() throws {
        let bus = try Self.accessibilityBus()
        let recordings = bus.folder.appendingPathComponent("recordings")
        let serve = try bus.serve(["--mode", "manual", "--scenario", Self.scenario, "--atspi", "--record", recordings.path])
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/atspi_dogtail_login.py").path
        let login = try bus.run("/usr/bin/env", ["-u", "AT_SPI_BUS_ADDRESS", "/usr/bin/python3", script, Self.application])
        #expect(
            login.status == 0 && login.output.contains("password focused after Next: True\n"),
            "\(login.output)\(login.errorOutput)")
        #expect(!login.output.contains("hunter2"))
        PrivateBus.terminate(serve)
        let recording = try String(contentsOf: recordings.appendingPathComponent("default.yaml"), encoding: .utf8)
        #expect(
            recording.hasSuffix(
                """
                steps:
                  - emit: {name: "tap", fields: {"target": "username"}}
                  - emit: {name: "text", fields: {"target": "username", "text": "vijay"}}
                  - emit: {name: "return", fields: {"target": "username"}}
                  - emit: {name: "text", fields: {"target": "password", "text": "•••••••"}}
                  - emit: {name: "return", fields: {"target": "password"}}

                """), "\(recording)")
    }

    /// Each shipped plugin's scene as an inspector dumps it (under the application and its frame,
    /// both named after the scenario): roles, names, states and extents.
    @Test(arguments: [
        (
            "gateway/login-logout.yaml",
            """
            panel: Log in [enabled, sensitive, showing, visible] (0, 0, 320, 568)
            """
        ),
        (
            "auto-scroll/form-flow.yaml",
            """
            scroll pane:  [enabled, sensitive, showing, visible] (0, 0, 320, 568)
              panel:  [enabled, sensitive, showing, visible] (0, 0, 320, 574)
                text: Field 1 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 20, 280, 50)
                text: Field 2 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 90, 280, 50)
                text: Field 3 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 160, 280, 50)
                text: Field 4 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 230, 280, 50)
                text: Field 5 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 300, 280, 50)
                text: Field 6 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 370, 280, 50)
                text: Field 7 [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 440, 280, 50)
                push button: Save [enabled, sensitive, showing, visible] (20, 510, 280, 44)
            """
        ),
        (
            "panner/drag-original.yaml",
            """
            scroll pane:  [enabled, sensitive, showing, visible] (0, 0, 320, 568)
              image: Photo [enabled, sensitive, showing, visible] (-976, -1732, 2272, 4033)
            filler:  [enabled, sensitive, showing, visible] (10, 0, 300, 518)
            """
        ),
        (
            "login-animator/keyboard-lifts-form.yaml",
            """
            heading: Paper [enabled, sensitive, showing, visible] (138, 120, 45, 21)
            text: Username [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 241, 280, 30)
            panel:  [enabled, sensitive, showing, visible] (20, 279, 280, 1)
            password text: Password [editable, enabled, focusable, sensitive, showing, single line, visible] (20, 288, 280, 30)
            """
        ),
    ])
    func eachShippedPluginsSceneDumpsAsExpected(file: String, nodes: String) throws {
        let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/\(file)")
        let name = try #require(
            try String(contentsOf: scenario, encoding: .utf8).split(separator: "\n").first?.dropFirst("name: ".count))
        let application = name.hasPrefix("\"") ? String(name.dropFirst().dropLast()) : String(name)
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", scenario.path, "--atspi"])
        let tree = try Self.pyatspi(["tree", application], on: bus)
        let indented = nodes.split(separator: "\n").map { "    \($0)\n" }.joined()
        #expect(
            tree.output
                == "application: \(application) []\n  frame: \(application) [enabled, sensitive, showing, visible] (0, 0, 320, 568)\n"
                + indented, "\(tree.errorOutput)")
    }

    /// The events a pyatspi listener gets from `file`'s application while `drive` drives the
    /// simulation with gdbus, up to the line `last`.
    static func events(of file: String, _ kinds: [String], until last: String, drive: (PrivateBus) throws -> Void) throws
        -> String
    {
        let scenario = Rehearse.packageRoot.appendingPathComponent("Scenarios/\(file)")
        let name = try #require(
            try String(contentsOf: scenario, encoding: .utf8).split(separator: "\n").first?.dropFirst("name: ".count))
        let bus = try Self.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", scenario.path, "--atspi"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["-u", "AT_SPI_BUS_ADDRESS", "/usr/bin/python3", client, "listen", String(name)] + kinds,
            output: "events.out", errorOutput: "events.log")
        #expect(bus.waitFor("listening\n", in: "events.out"), "\(bus.contents(of: "events.log"))")
        try drive(bus)
        #expect(bus.waitFor(last, in: "events.out"), "\(bus.contents(of: "events.out"))\(bus.contents(of: "events.log"))")
        return bus.contents(of: "events.out")
    }

    @Test func nodesTheKeyboardCoversStopShowingAndASwappedChildIsAnnounced() throws {
        let covered = try Self.events(
            of: "auto-scroll/form-flow.yaml", ["object:state-changed:showing"],
            until: "on push button: Save (0)\n"
        ) { bus in
            _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'field3'>}"])
            _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["1"])
        }
        #expect(
            covered == """
                listening
                object:state-changed:showing detail1=0 on text: Field 6 (0)
                object:state-changed:showing detail1=0 on text: Field 7 (0)
                object:state-changed:showing detail1=0 on push button: Save (0)

                """)
        let swapped = try Self.events(of: "gateway/login-logout.yaml", ["object:children-changed"], until: "add detail1=0") {
            bus in
            _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["login.submit", "{'username': <'vijay'>}"])
            _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["0.5"])
        }
        // The login view goes (its object with it) and the home view comes, both at index 0 of the frame.
        let frame = "on frame: The gateway embeds exactly one child, login or home, and swaps it when the status changes"
        #expect(
            swapped == "listening\nobject:children-changed:remove detail1=0 \(frame) (gone)\n"
                + "object:children-changed:add detail1=0 \(frame) (panel: Home)\n")
    }

    @Test func aFormScrolledAboveTheKeyboardAnnouncesWhereEachNodeWent() throws {
        // Field 3 centred above the keyboard: the form scrolls by 9 points (Scenarios/auto-scroll/form-flow.yaml).
        let moved = try Self.events(
            of: "auto-scroll/form-flow.yaml", ["object:bounds-changed"], until: "on push button: Save (20, 501, 280, 44)\n"
        ) { bus in
            _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'field3'>}"])
            _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["1"])
        }
        #expect(
            moved == """
                listening
                object:bounds-changed detail1=0 on panel:  (0, -9, 320, 574)
                object:bounds-changed detail1=0 on text: Field 1 (20, 11, 280, 50)
                object:bounds-changed detail1=0 on text: Field 2 (20, 81, 280, 50)
                object:bounds-changed detail1=0 on text: Field 3 (20, 151, 280, 50)
                object:bounds-changed detail1=0 on text: Field 4 (20, 221, 280, 50)
                object:bounds-changed detail1=0 on text: Field 5 (20, 291, 280, 50)
                object:bounds-changed detail1=0 on text: Field 6 (20, 361, 280, 50)
                object:bounds-changed detail1=0 on text: Field 7 (20, 431, 280, 50)
                object:bounds-changed detail1=0 on push button: Save (20, 501, 280, 44)

                """)
    }

    @Test func viewExportsTheSameScreenBesideTheViewer() throws {
        let bus = try Self.accessibilityBus()
        _ = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["view", "--http", "127.0.0.1:0", "--scenario", Self.scenario, "--atspi"], output: "view.out", errorOutput: "view.log"
        )
        #expect(bus.waitFor("viewing: http://127.0.0.1:", in: "view.out"), "\(bus.contents(of: "view.log"))")
        let click = try Self.pyatspi(["click", Self.application, "text", "Username"], on: bus)
        #expect(
            click.output.contains("event: object:state-changed:focused detail1=1 on text: Username\n"),
            "\(click.output)\(click.errorOutput)")
    }

    @Test func withoutAnAccessibilityBusServeSaysWhatIsMissing() throws {
        let bus = try PrivateBus()  // no org.a11y.Bus to activate
        let result = try bus.run(
            Rehearse.productsFolder.appendingPathComponent("rehearse").path,
            ["serve", "--address", bus.address, "--scenario", Self.scenario, "--atspi"])
        #expect(result.status == 2)
        #expect(
            result.errorOutput.hasPrefix(
                "rehearse serve: --atspi: no accessibility bus: org.a11y.Bus.GetAddress on the session bus failed ("),
            "\(result.errorOutput)")
        #expect(try !bus.hasOwner("org.rehearse.Simulator"))
    }
}
