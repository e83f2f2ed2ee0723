import Foundation
import IntegrationTestSupport
import RehearseCore
import RehearsePlugins
import Testing

@testable import RehearseDBusInterface

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `rehearse serve` on a private bus, driven by peers nobody here wrote: gdbus, dbus-send,
/// dbus-monitor and a jeepney (Python) client.
@Suite(.serialized) struct DBusTests {
    /// What `rehearse monitor` says on standard error once it sees every event sent from then on.
    static let monitorIsReady = "rehearse monitor: following events"

    @Test func introspectionDescribesTheWholeInterfaceAndTheTreeFindsIt() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "gateway"])
        let xml = try bus.run(
            "/usr/bin/gdbus",
            [
                "introspect", "--session", "--dest", "org.rehearse.Simulator",
                "--object-path", "/org/rehearse/Simulator", "--xml",
            ])
        #expect(xml.status == 0, "\(xml.errorOutput)")
        let parsed = IntrospectionNames(xml.output)
        #expect(parsed.members == (SimulatorMethod.allCases.map(\.rawValue) + ["Event"]).sorted())
        #expect(parsed.members.contains("CreateSession") && parsed.members.contains("Advance"), "the table is the one served")
        #expect(parsed.properties == ["EventCount", "FirstResponder", "KeyboardVisible", "Mode", "Orientation", "Time"])
        #expect(parsed.arguments["Inject"] == ["name:s", "fields:a{sv}", "sequence:t"])
        // The Event signal names every event it can carry: the built-in ones and the plugin's.
        let gatewayEvents = try #require(shippedPlugins["gateway"]).events
        #expect(
            parsed.eventAnnotations.count == BuiltinEvent.allCases.count + gatewayEvents.count,
            "every built-in event and the plugin's")
        #expect(gatewayEvents.count >= 5 && BuiltinEvent.allCases.count >= 17)
        #expect(parsed.eventAnnotations["org.rehearse.Event.tap"]?.hasPrefix(BuiltinEvent.tap.fieldSummary + ": ") == true)
        #expect(
            parsed.eventAnnotations["org.rehearse.Event.login.failed"]
                == "username, reason?: the authenticator (gateway), when it refuses a login")
        #expect(parsed.eventAnnotations["org.rehearse.Event.logout"] == "no fields: injected: log out")
        let tree = try bus.run(
            "/usr/bin/gdbus",
            [
                "introspect", "--session", "--dest", "org.rehearse.Simulator",
                "--object-path", "/", "--recurse",
            ])
        #expect(tree.output.contains("node /org/rehearse/Simulator"))
    }

    @Test func manualModeStepsTheClockOnlyOnAdvance() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["title.frame.y"]).output == "(<120.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"]).output == "(uint64 1,)\n")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["title.presentation.frame.y"]).output == "(<120.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Advance", ["0.3"]).output == "(0.29999999999999999,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["title.presentation.frame.y"]).output == "(<70.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'username'>,)\n")
        let plugins = try bus.gdbus("org.rehearse.Simulator1.ListPlugins")
        #expect(plugins.output.contains("('login-animator', "))
        #expect(plugins.output.contains("true)"))
        let snapshot = try bus.gdbus("org.rehearse.Simulator1.Snapshot")
        #expect(snapshot.output.contains(#""firstResponder":"username""#))
    }

    /// An event's `target` as a node query (`a{sv}`), from gdbus: found in the scene as the call
    /// is made; one that finds none or several is `NodeNotFound` naming the nodes (never a secure
    /// field's text), a malformed one `InvalidField`, and the service keeps serving.
    @Test func aTargetIsFoundByAQuery() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <{'label': <'Password'>}>}"]).output
                == "(uint64 1,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'password'>,)\n")
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["text", "{'target': <'password'>, 'text': <'Paper'>}"])
        let missing = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <{'text': <'Papr'>}>}"])
        #expect(missing.errorOutput.contains("org.rehearse.Error.NodeNotFound"), "\(missing.errorOutput)")
        // The title is nearest; the password field, which holds "Paper" too, is never compared nor shown.
        #expect(
            missing.errorOutput.contains(#"no node matches {text: "Papr"}; nearest: 'title' (label, text "Paper""#),
            "\(missing.errorOutput)")
        #expect(missing.errorOutput.components(separatedBy: "Paper").count == 2, "\(missing.errorOutput)")
        #expect(missing.errorOutput.contains(#"'password' (textField, secure, label "Password")"#), "\(missing.errorOutput)")
        let several = try bus.gdbus("org.rehearse.Simulator1.Inject", ["focus", "{'target': <{'kind': <'textField'>}>}"])
        #expect(
            several.errorOutput.contains("org.rehearse.Error.NodeNotFound: focus: 2 nodes match {kind: textField}"),
            "\(several.errorOutput)")
        let malformed = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <{'txt': <'Paper'>}>}"])
        #expect(malformed.errorOutput.contains("org.rehearse.Error.InvalidField"), "\(malformed.errorOutput)")
        let huge = try bus.gdbus(
            "org.rehearse.Simulator1.Inject", ["tap", "{'target': <{'kind': <'label'>, 'index': <int64 9223372036854775807>}>}"])
        #expect(huge.errorOutput.contains("org.rehearse.Error.InvalidField"), "\(huge.errorOutput)")
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Inject", ["focus", "{'target': <{'kind': <'textField'>, 'index': <1>}>}"])
                .status == 0)
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'password'>,)\n")
    }

    @Test func dbusSendInjectsStringsAndGetsNamedErrors() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "panner"])
        func send(_ method: String, _ arguments: [String]) throws -> CommandResult {
            try bus.run(
                "/usr/bin/dbus-send",
                [
                    "--session", "--print-reply", "--dest=org.rehearse.Simulator",
                    "/org/rehearse/Simulator", "org.rehearse.Simulator1.\(method)",
                ] + arguments)
        }
        let motion = try send(
            "InjectStrings", ["string:motion", "dict:string:string:rotationRate.x,0,rotationRate.y,-0.5,rotationRate.z,0"])
        #expect(motion.status == 0, "\(motion.errorOutput)")
        // 976 + 0.5 × 7.1 × 5 = 993.75 (the panner's first pan).
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["scroll.contentOffset.x"]).output == "(<993.75>,)\n")
        let unknown = try send("InjectStrings", ["string:motino", "dict:string:string:a,1"])
        #expect(unknown.errorOutput.contains("org.rehearse.Error.UnknownEvent"))
        let signature = try send("Get", ["int32:3"])
        #expect(signature.errorOutput.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        let path = try send("Get", ["string:scroll.frame.depth"])
        #expect(path.errorOutput.contains("org.rehearse.Error.UnknownPath"))
        #expect(try send("Get", ["string:time"]).status == 0)
    }

    @Test func theEventSignalMatchesOnItsNameAndNeverCarriesASecret() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        let monitor = try bus.start(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"),
            ["--session", "type='signal',interface='org.rehearse.Simulator1',arg2='text'"],
            output: "monitor.txt")
        let everything = try bus.start(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"), ["--session", "type='signal'"],
            output: "all.txt")
        Thread.sleep(forTimeInterval: 0.3)
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'password'>}"])
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["text", "{'target': <'password'>, 'text': <'hunter2'>}"])
        _ = try bus.gdbus("org.rehearse.Simulator1.Advance", ["0.5"])
        Thread.sleep(forTimeInterval: 0.3)
        bus.stop(monitor)
        bus.stop(everything)
        Thread.sleep(forTimeInterval: 0.1)
        let matched = bus.contents(of: "monitor.txt")
        #expect(matched.components(separatedBy: "member=Event").count - 1 == 1)
        #expect(matched.contains(#"string "text""#))
        #expect(matched.contains("<redacted>"))
        let all = bus.contents(of: "all.txt")
        #expect(all.contains(#"string "keyboard.willShow""#))
        #expect(all.contains("member=PropertiesChanged"))
        #expect(all.contains(#"string "FirstResponder""#))
        #expect(!all.contains("hunter2"))
    }

    /// `rehearse inject` and `rehearse monitor` are libdbus clients written in Swift.
    @Test func injectAndMonitorTalkToTheServiceThroughLibdbus() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let monitor = try bus.start(
            rehearse, ["monitor", "--address", bus.address, "keyboard.willShow", "--count", "1"],
            output: "events.jsonl", errorOutput: "monitor.err")
        #expect(bus.waitFor(Self.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")
        let injected = try bus.run(rehearse.path, ["inject", "--address", bus.address, "focus", "target=username"])
        #expect(injected.status == 0, "\(injected.errorOutput)")
        #expect(injected.output == "sequence 1\n")
        PrivateBus.waitForExit(monitor)
        let line = bus.contents(of: "events.jsonl")
        #expect(line.hasPrefix(#"{"fields":{"beginFrame":{"height":216.0,"width":320.0,"x":0.0,"y":568.0}"#))
        #expect(line.contains(#""name":"keyboard.willShow","seq":3,"time":0}"#))
        let refused = try bus.run(rehearse.path, ["inject", "--address", bus.address, "focus", "target=nobody"])
        #expect(refused.status == 2)
        #expect(refused.errorOutput.contains("org.rehearse.Error.InvalidField"))
    }

    /// With nothing serving the name, `inject` and `monitor` say so in plain words and how to
    /// start it, not libdbus's "not provided by any .service files".
    @Test func aClientWithNoServiceSaysHowToStartOne() throws {
        let bus = try PrivateBus()
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        for arguments in [["inject", "resign"], ["monitor", "--count", "1"]] {
            let result = try bus.run(rehearse, arguments + ["--address", bus.address])
            #expect(result.status != 0)
            #expect(
                result.errorOutput.contains(
                    "nothing serves org.rehearse.Simulator on \(bus.address): start it with `rehearse serve`"),
                "\(result.errorOutput)")
            #expect(result.errorOutput.contains("rehearse install-dbus-service"))
        }
    }

    /// Any client on a bus can send a signal that looks like the service's `Event`: the monitor
    /// takes only the service's own, and with `--any-sender` the others too, each line naming
    /// its sender; a look-alike that does not read as an event is skipped with a warning.
    /// (Once, it printed a forger's event as the service's and exited 1 on a malformed one.)
    @Test func theMonitorTakesOnlyTheServicesEvents() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let forge = """
            from jeepney import new_signal, DBusAddress
            from jeepney.io.blocking import open_dbus_connection
            connection = open_dbus_connection(bus="SESSION")
            emitter = DBusAddress("/org/rehearse/Simulator", interface="org.rehearse.Simulator1")
            connection.send(new_signal(emitter, "Event", "tdsa{sv}", (99, 1.0, "network", {"online": ("b", True)})))
            connection.send(new_signal(emitter, "Event", "s", ("not an event",)))
            print(connection.unique_name)
            """
        for (flags, expectedLines) in [([String](), 1), (["--any-sender"], 2)] {
            let monitor = try bus.start(
                rehearse, ["monitor", "--address", bus.address, "--count", "\(expectedLines)"] + flags,
                output: "events.jsonl", errorOutput: "monitor.err")
            #expect(bus.waitFor(Self.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")
            let forger = try bus.run("/usr/bin/env", ["python3", "-c", forge]).output.trimmingCharacters(
                in: .whitespacesAndNewlines)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(try bus.run(rehearse.path, ["inject", "--address", bus.address, "resign"]).status == 0)
            PrivateBus.waitForExit(monitor)
            #expect(monitor.terminationStatus == 0, "\(bus.contents(of: "monitor.err"))")
            let lines = bus.contents(of: "events.jsonl").split(separator: "\n")
            if flags.isEmpty {
                #expect(lines == [#"{"fields":{},"name":"resign","seq":1,"time":0}"#], "\(lines)")
            } else {
                #expect(
                    lines.first == #"{"fields":{"online":true},"name":"network","seq":99,"time":1,"sender":"\#(forger)"}"#,
                    "\(lines)")
                #expect(lines.last?.hasPrefix(#"{"fields":{},"name":"resign","seq":2,"time":0,"sender":":"#) == true, "\(lines)")
                #expect(
                    bus.contents(of: "monitor.err").contains(
                        "rehearse monitor: skipped an Event signal from \(forger) that does not read as one"))
            }
        }
    }

    /// `--listen`: clients connect straight to the service (no daemon) and share its simulation.
    @Test func peersConnectDirectlyAndShareTheSimulation() throws {
        let bus = try PrivateBus()
        let peer = "unix:path=\(bus.folder.path)/peer.sock"
        try bus.serve(["--mode", "manual", "--plugins", "login-animator", "--listen", peer])
        let direct = [
            "call", "--address", peer, "--dest", "org.rehearse.Simulator", "--object-path", "/org/rehearse/Simulator",
            "--method",
        ]
        #expect(
            try bus.run("/usr/bin/gdbus", direct + ["org.rehearse.Simulator1.Inject", "tap", "{'target': <'username'>}"])
                .output == "(uint64 1,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'username'>,)\n")
        let python = """
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            connection = open_dbus_connection(bus="\(peer)")
            simulator = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
            print(connection.send_and_get_reply(new_method_call(simulator, "Get", "s", ("keyboard.visible",))).body)
            """
        #expect(try bus.run("/usr/bin/env", ["python3", "-c", python]).output == "(('b', True),)\n")
    }

    /// `--no-bus`: the service joins no bus and serves its peers alone; `rehearse inject` and
    /// `rehearse monitor` reach it at its address.
    @Test func noBusServesPeersWithoutJoiningTheBus() throws {
        let bus = try PrivateBus()
        let peer = try bus.servePeersOnly(["--mode", "manual"]).address
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let monitor = try bus.start(
            rehearse, ["monitor", "--address", peer, "network", "--count", "1"], output: "events.jsonl",
            errorOutput: "monitor.err")
        #expect(bus.waitFor(Self.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")
        #expect(try bus.run(rehearse.path, ["inject", "--address", peer, "resign"]).output == "sequence 1\n")
        let injected = try bus.run(rehearse.path, ["inject", "--address", peer, "network", "online=false"])
        #expect(injected.output == "sequence 2\n", "\(injected.errorOutput)")
        PrivateBus.waitForExit(monitor)
        #expect(bus.contents(of: "events.jsonl") == #"{"fields":{"online":false},"name":"network","seq":2,"time":0}"# + "\n")
        #expect(
            try bus.run(
                "/usr/bin/gdbus",
                [
                    "call", "--address", peer, "--dest", "org.rehearse.Simulator",
                    "--object-path", "/org/rehearse/Simulator",
                    "--method", "org.rehearse.Simulator1.Advance", "0.25",
                ]
            ).output == "(0.25,)\n")
        #expect(try !bus.hasOwner("org.rehearse.Simulator"))
        let refused = try bus.run(rehearse.path, ["serve", "--no-bus"])
        #expect(refused.status == 2)
        #expect(refused.errorOutput.contains("--no-bus serves only peers: give the address to --listen at"))
    }

    /// Pipelined injections lose nothing: consecutive sequence numbers in the replies and as many
    /// Event signals at a monitor. (1,000,000 of them: Benchmarks/README.md; 20,000 here.)
    @Test func pipelinedInjectionsLoseNoEvent() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let monitor = try bus.start(
            rehearse, ["monitor", "--address", bus.address, "network", "--count", "20000", "--summary"],
            output: "summary.txt", errorOutput: "monitor.err")
        #expect(bus.waitFor(Self.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")
        let injected = try bus.run(
            rehearse.path,
            [
                "inject", "--address", bus.address, "network", "online=false",
                "--times", "20000",
            ])
        #expect(
            injected.output.hasPrefix("20000 injected, sequences 1...20000 in order, no other event between them"),
            "\(injected.errorOutput)")
        PrivateBus.waitForExit(monitor)
        #expect(bus.contents(of: "summary.txt") == "20000 events, sequences 1...20000, consecutive: yes\n")
    }

    /// A tap on a field causes focus and keyboard events of its own: `--times` says how many came
    /// between the replies' sequence numbers, not that something went wrong.
    @Test func repeatedInjectionsCountTheEventsTheyCaused() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let injected = try bus.run(
            rehearse.path,
            [
                "inject", "--address", bus.address, "tap", "target=username", "--times", "3",
                "--window", "1",
            ])
        // The first tap focuses the field and raises the keyboard: focus.changed and
        // keyboard.willShow follow it (the form's animation waits for the manual clock); the next two are taps alone.
        #expect(
            injected.output.hasPrefix("3 injected, sequences 1...5 in order, 2 other events between them"),
            "\(injected.output)\(injected.errorOutput)")
    }

    @Test func propertiesAnswerGetAll() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let all = try bus.gdbus("org.freedesktop.DBus.Properties.GetAll", ["org.rehearse.Simulator1"])
        #expect(all.output.contains("'Mode': <'manual'>"))
        #expect(all.output.contains("'KeyboardVisible': <false>"))
        let set = try bus.gdbus("org.freedesktop.DBus.Properties.Set", ["org.rehearse.Simulator1", "Mode", "<'virtual'>"])
        #expect(set.errorOutput.contains("PropertyReadOnly"))
    }

    /// The bad-input matrix from a jeepney client: each case its named error, the service alive after.
    @Test func badInputGetsNamedErrorsAndTheServiceKeepsServing() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/dbus_client.py").path
        let result = try bus.run("/usr/bin/env", ["python3", script])
        #expect(result.status == 0, "\(result.errorOutput)")
        var errors: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = try #require(row["case"] as? String)
            errors[name] = row["error"] as? String ?? "none"
            #expect(row["alive"] as? Bool == true, "\(name)")
        }
        #expect(
            errors == [
                "valid tap": "none", "nested motion": "none",
                "unknown event": "org.rehearse.Error.UnknownEvent",
                "unknown target": "org.rehearse.Error.InvalidField",
                "wrong field type": "org.rehearse.Error.InvalidField",
                "missing field": "org.rehearse.Error.InvalidField",
                "nan": "org.rehearse.Error.InvalidField",
                "infinity": "org.rehearse.Error.InvalidField",
                "string over 64 KiB": "org.rehearse.Error.InvalidField",
                "more than 1000 fields": "org.rehearse.Error.InvalidField",
                "variants nested deeper than 32": "org.rehearse.Error.InvalidField",
                "wrong signature": "org.freedesktop.DBus.Error.InvalidArgs",
                "advance negative": "org.rehearse.Error.InvalidField",
                "unknown path": "org.rehearse.Error.UnknownPath",
                // Read once a `.count` before, it overflowed the stack: the service was gone.
                "path of 64 KiB of .count": "org.rehearse.Error.UnknownPath",
                "invalid scenario": "org.rehearse.Error.InvalidScenario",
                "unknown plugin": "org.rehearse.Error.UnknownPlugin",
                "bad configuration": "org.rehearse.Error.InvalidField",
            ])
    }

    /// Issue 25: a misspelt event, field or path sent over D-Bus is answered with the nearest
    /// name, from `rehearse inject` as from gdbus.
    @Test func misspeltNamesOverDBusAreAnsweredWithTheNearestOne() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        let rehearse = Rehearse.productsFolder.appendingPathComponent("rehearse")
        let event = try bus.run(rehearse.path, ["inject", "--address", bus.address, "tapp", "target=username"])
        #expect(event.status != 0)
        #expect(event.errorOutput.contains("unknown event 'tapp' (did you mean 'tap'?)"), "\(event.errorOutput)")
        let field = try bus.run(rehearse.path, ["inject", "--address", bus.address, "login.submit", "usrname=vijay"])
        #expect(field.errorOutput.contains("field 'usrname' is not known (did you mean 'username'?)"), "\(field.errorOutput)")
        // Issue 25's attack: what the service says back reached the terminal raw.
        let raw = try bus.run(rehearse.path, ["inject", "--address", bus.address, "ta\u{1B}[31mp", "target=username"])
        #expect(
            !raw.errorOutput.unicodeScalars.contains("\u{1B}") && raw.errorOutput.contains("ta\\u{1B}[31mp"), "\(raw.errorOutput)"
        )
        let path = try bus.gdbus("org.rehearse.Simulator1.Get", ["titel.frame.y"])
        #expect(
            path.errorOutput.contains("'titel' is not a node, a plugin or a system path (did you mean 'title'?)"),
            "\(path.errorOutput)")
    }

    @Test func readOnlyRefusesChangesButAnswersQuestions() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--read-only"])
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Inject", ["network", "{'online': <false>}"]).errorOutput
                .contains("org.rehearse.Error.NotPermitted"))
        #expect(try bus.gdbus("org.rehearse.Simulator1.Reset").errorOutput.contains("org.rehearse.Error.NotPermitted"))
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).status == 0)
    }

    @Test func realtimeModeTicksOnTheWallClock() throws {
        let bus = try PrivateBus()
        try bus.serve(["--plugins", "login-animator"])
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["focus", "{'target': <'username'>}"])
        Thread.sleep(forTimeInterval: 0.6)
        let time = try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "Time"]).output
        let seconds = Double(time.trimmingCharacters(in: CharacterSet(charactersIn: "(<>,)\n"))) ?? 0
        #expect(seconds > 0.5 && seconds < 30)
        // The keyboard's 0.5 s and the form's 0.3 s have run: ticks were delivered.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["title.presentation.frame.y"]).output == "(<70.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Advance", ["1"]).errorOutput.contains("org.rehearse.Error.WrongMode"))
        let count = try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
        #expect((UInt64(count.filter(\.isNumber)) ?? 0) > 20)
    }

    @Test func sigtermReleasesTheNameAndExitsZeroAndATakenNameIsRefused() throws {
        let bus = try PrivateBus()
        let first = try bus.serve(["--mode", "manual"])
        let second = try Rehearse.launch(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--address", bus.address, "--mode", "manual"], environment: bus.environment)
        #expect(second.status == 2)
        #expect(second.errorOutput.contains("the name org.rehearse.Simulator is taken"))
        first.terminate()
        PrivateBus.waitForExit(first)
        #expect(!first.isRunning)
        #expect(!first.isRunning && first.terminationStatus == 0)
        #expect(try !bus.hasOwner("org.rehearse.Simulator"))
    }
}

/// The method, signal and property names of the simulator interface in introspection XML.
private final class IntrospectionNames: NSObject, XMLParserDelegate {
    var members: [String] = []
    var properties: [String] = []
    var arguments: [String: [String]] = [:]
    /// The `Event` signal's annotations, by name.
    var eventAnnotations: [String: String] = [:]
    private var inSimulator = false
    private var member: String?

    init(_ xml: String) {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        _ = parser.parse()
        members.sort()
        properties.sort()
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "interface": inSimulator = attributes["name"] == "org.rehearse.Simulator1"
        case "method" where inSimulator, "signal" where inSimulator:
            member = attributes["name"]
            if let member { members.append(member) }
        case "property" where inSimulator:
            member = nil
            if let name = attributes["name"] { properties.append(name) }
        case "annotation" where inSimulator && member == "Event":
            if let name = attributes["name"] { eventAnnotations[name] = attributes["value"] }
        case "arg" where inSimulator:
            if let member { arguments[member, default: []].append("\(attributes["name"] ?? ""):\(attributes["type"] ?? "")") }
        default: break
        }
    }
}
