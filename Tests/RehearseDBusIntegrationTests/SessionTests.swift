import Foundation
import IntegrationTestSupport
import Testing

/// Sessions on `rehearse serve`: each client its own simulation, driven by jeepney (Python) clients
/// on a private bus and over `--listen`.
@Suite(.serialized) struct SessionTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent(
        "Tests/RehearseDBusIntegrationTests/session_client.py"
    ).path

    /// Runs the session client with `arguments` to the end.
    private func client(_ bus: PrivateBus, _ arguments: [String]) throws -> CommandResult {
        try bus.run("/usr/bin/env", ["python3", Self.client] + arguments)
    }

    /// Two clients at once, each in its own session (login animator; panner), print the same
    /// traces as each alone: the sessions do not see each other's calls, events or clock.
    @Test func concurrentSessionsGiveTheTracesEachGivesAlone() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let loginAlone = try client(bus, ["trace", "login"])
        let pannerAlone = try client(bus, ["trace", "panner"])
        #expect(loginAlone.status == 0, "\(loginAlone.errorOutput)")
        #expect(loginAlone.output.hasPrefix("1 0.000000 tap "))
        #expect(pannerAlone.output.hasPrefix("1 0.000000 motion "))
        for round in 1...3 {
            let script =
                "python3 '\(Self.client)' trace login > login.txt & python3 '\(Self.client)' trace panner > panner.txt; wait"
            let both = try bus.run("/bin/bash", ["-c", "cd '\(bus.folder.path)'; \(script)"])
            #expect(both.status == 0, "\(both.errorOutput)")
            #expect(bus.contents(of: "login.txt") == loginAlone.output, "round \(round)")
            #expect(bus.contents(of: "panner.txt") == pannerAlone.output, "round \(round)")
        }
        // The default session saw none of it.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.0>,)\n")
        #expect(
            try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
                == "(<uint64 0>,)\n")
    }

    @Test func aSessionEndsWhenItsClientLeavesTheBus() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let created = try client(bus, ["create"])
        let path = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.wholeMatch(of: Self.sessionPath) != nil, "\(path)\(created.errorOutput)")
        let answer = try waitForGone(path, bus: bus) { arguments in try bus.run("/usr/bin/gdbus", arguments) }
        #expect(answer.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(answer)")
        // The service goes on: a new session gets a path of its own.
        let again = try client(bus, ["create"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(again.wholeMatch(of: Self.sessionPath) != nil && again != path, "\(again)")
    }

    @Test func aPeersSessionEndsWhenThePeerDisconnects() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let created = try client(bus, ["create", address])
        let path = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.wholeMatch(of: Self.sessionPath) != nil, "\(path)\(created.errorOutput)")
        let answer = try waitForGone(path, bus: bus, address: address) { arguments in try bus.run("/usr/bin/gdbus", arguments) }
        #expect(answer.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(answer)")
    }

    /// A session's path: 128 random bits under the sessions' folder, never a count another
    /// client could guess.
    private static var sessionPath: Regex<Substring> { /\/org\/rehearse\/Simulator\/sessions\/[0-9a-f]{32}/ }

    /// One client may hold 8 sessions (then `Limit`, naming its own limit); seven more clients
    /// take 8 each, and then the service's 64 are all taken. Every path differs.
    @Test func sessionsHaveAQuotaPerClientAndACapInAll() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let result = try client(bus, ["caps"])
        #expect(
            result.output == #"{"first": 8, "refused": "you have 8 sessions open (the limit for one client): close one first", "#
                + #""others": 56, "last": "64 sessions are open (the limit): try again later", "distinct": true}"# + "\n",
            "\(result.errorOutput)")
    }

    /// Another connection can neither use a session nor see it: each call is `AccessDenied`, the
    /// listing leaves it out, and its `Event` signals reach only the owner (unicast on a bus,
    /// sent to the owning peer only over `--listen`), even for a client whose match rule takes
    /// every signal. Shared at creation, it is open to others. (Once, any client could read the
    /// owner's text, type into it, record it and close it.)
    @Test(arguments: [false, true])
    func aSessionBelongsToItsOwner(overPeers: Bool) throws {
        let bus = try PrivateBus()
        var address: [String] = []
        if overPeers {
            address = [try bus.servePeersOnly(["--mode", "manual", "--record", bus.folder.path]).address]
        } else {
            try bus.serve(["--mode", "manual", "--record", bus.folder.path])
        }
        let denied = "org.freedesktop.DBus.Error.AccessDenied"
        let own = try client(bus, ["intrude", "own"] + address)
        #expect(
            own.output == #"{"Close": "\#(denied)", "Get": "\#(denied)", "Inject": "\#(denied)", "Introspect": "\#(denied)", "#
                + #""Record": "\#(denied)", "listed": false, "overheard": 0, "owner heard": true, "owner's text": ""}"# + "\n",
            "\(own.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: bus.folder.appendingPathComponent("stolen.yaml").path))
        let shared = try client(bus, ["intrude", "shared"] + address)
        #expect(
            shared.output.contains(#""Get": "answered", "Inject": "answered", "Introspect": "answered""#),
            "\(shared.output)\(shared.errorOutput)")
        #expect(
            shared.output.contains(#""listed": true"#) && shared.output.contains(#""owner's text": "intruder""#),
            "\(shared.output)")
        #expect(!shared.output.contains(#""overheard": 0"#), "\(shared.output)")
    }

    /// A name `Record` refuses is refused to every session alike, and claims nothing: session B
    /// gets `InvalidArgs` for `../escape` after session A did, and a good name is A's alone while
    /// A is open, and B's once A is closed. (Once, A's refused name was A's all the same, and B
    /// got `NotPermitted`: "another session's recording"; refused names piled up in the service.
    /// Then a name stayed its session's after the session was closed: refused to every later
    /// session, and the names of closed sessions piled up.)
    @Test func aRefusedRecordingNameIsNobodys() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--record", bus.folder.path])
        let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        let taken = "org.rehearse.Error.NotPermitted"
        let result = try client(bus, ["names"])
        #expect(
            result.output == #"{"../escape": ["\#(invalid)", "\#(invalid)"], "a/b": ["\#(invalid)", "\#(invalid)"], "#
                + #"".hidden": ["\#(invalid)", "\#(invalid)"], "kept": ["answered", "\#(taken)"], "kept, once A is closed": ["answered"]}"#
                + "\n", "\(result.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: bus.folder.appendingPathComponent("kept.yaml").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: bus.folder.deletingLastPathComponent().appendingPathComponent("escape.yaml").path))
    }

    /// The shipped client's `events()` read as a stream, with no round trip first, gives every
    /// event a round trip gives. (Once it dropped the message it waited for, and a session sent
    /// a call's reply before the events the call delivered.)
    @Test func theClientsEventStreamMissesNoEvent() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let result = try client(bus, ["stream"])
        let lines = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: [String]]
        let streamed = lines?["streamed"] ?? []
        let expected = lines?["after a round trip"] ?? []
        #expect(
            expected.contains("keyboard.didShow") && expected.contains("focus.changed"), "\(result.output)\(result.errorOutput)")
        #expect(streamed == expected)
    }

    /// A client that leaves the bus while its session is still being built has no session left
    /// behind: it is dropped once built, and never recorded. (Once, it lived on, owned by nobody,
    /// until the service stopped and recorded it.) The set-up, about 900 KiB, takes hundreds of
    /// milliseconds to read in a debug build; the bus says the client left within a millisecond.
    @Test func aSessionBuiltAfterItsClientLeftIsDropped() throws {
        let bus = try PrivateBus()
        let recordings = bus.folder.appendingPathComponent("recordings")
        let service = try bus.serve(["--mode", "manual", "--record", recordings.path])
        let script = """
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            connection = open_dbus_connection(bus="SESSION")
            text = "name: large\\nplugins: [gateway]\\n" + "# a comment line to make the file large\\n" * 23000 + "steps: []\\n"
            simulator = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator", interface="org.rehearse.Simulator1")
            connection.send(new_method_call(simulator, "CreateSession", "a{sv}", ({"scenario": ("s", text)},)))
            connection.close()
            """
        #expect(try bus.run("/usr/bin/env", ["python3", "-c", script]).status == 0)
        Thread.sleep(forTimeInterval: 2)
        PrivateBus.terminate(service)
        #expect(try FileManager.default.contentsOfDirectory(atPath: recordings.path) == ["default.yaml"])
    }

    /// A client that opens and closes more sessions than a bus allows match rules per connection
    /// (512 by default) is not refused: closing a session removes its rule.
    @Test func closedSessionsLeaveNoMatchRuleBehind() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let result = try client(bus, ["many", "600"])
        #expect(result.output == "600 sessions opened and closed\n", "\(result.errorOutput)")
    }

    @Test func sessionsAreListedToTheirOwnerAndTheDefaultCannotBeClosed() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        // gdbus keeps its connection only for one call: create and introspect from one bash line
        // would lose the session, so the listing is checked through a session held by Python.
        let script = """
            import sys
            sys.path.insert(0, '\(Rehearse.packageRoot.appendingPathComponent("clients/python").path)')
            import rehearse
            from jeepney import DBusAddress, new_method_call
            simulator = rehearse.Simulator()
            session = simulator.session(plugins=["panner"])
            node = session.path.rsplit("/", 1)[-1]
            folder = DBusAddress("/org/rehearse/Simulator/sessions", bus_name=rehearse.SERVICE,
                                 interface="org.freedesktop.DBus.Introspectable")
            print(f'<node name="{node}"/>' in simulator.call(new_method_call(folder, "Introspect"))[0])
            mine = DBusAddress(session.path, bus_name=rehearse.SERVICE, interface="org.freedesktop.DBus.Introspectable")
            print("interface name=\\"org.rehearse.Simulator1\\"" in simulator.call(new_method_call(mine, "Introspect"))[0])
            print(session.get("keyboard.visible"))
            default = simulator.default_session()
            for arguments in (("Close",), ("CreateSession", "a{sv}", {"colour": ("s", "red")})):
                try:
                    default.call(*arguments)
                except rehearse.RehearseError as error:
                    print(error.name)
            """
        let file = bus.folder.appendingPathComponent("listing.py")
        try Data(script.utf8).write(to: file)
        let result = try bus.run("/usr/bin/env", ["python3", file.path])
        #expect(
            result.output == """
                True
                True
                False
                org.rehearse.Error.NotPermitted
                org.freedesktop.DBus.Error.InvalidArgs

                """, "\(result.errorOutput)")
    }

    /// Sessions of `rehearse serve --record DIR`, one per plugin (set up from a bundled scenario),
    /// get 40 seeded random injections at random moments on a realtime clock; each recording,
    /// run by `rehearse run`, gives the trace the session delivered, event for event.
    @Test(arguments: [
        "login-animator/keyboard-lifts-form", "gateway/login-logout", "auto-scroll/form-flow", "panner/tilt-stream",
    ])
    func aRecordedRealtimeSessionReplaysToTheSameTrace(scenario: String) throws {
        let bus = try PrivateBus()
        let recordings = bus.folder.appendingPathComponent("recordings")
        try bus.serve(["--record", recordings.path])
        let file = Rehearse.packageRoot.appendingPathComponent("Scenarios/\(scenario).yaml").path
        let session = try client(bus, ["record", file, "\(scenario.count)"])
        #expect(session.status == 0, "\(session.errorOutput)")
        let recording = recordings.appendingPathComponent("session-1.yaml")
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.contains("- emit: {name: "))
        let trace = bus.folder.appendingPathComponent("replay.jsonl")
        let replay = try Rehearse.run(["run", recording.path, "--trace", trace.path])
        #expect(replay.status == 0, "\(replay.output)\(replay.errorOutput)")
        let replayed = try bus.eventLines(ofTrace: trace)
        let delivered = session.output.split(separator: "\n")
        let replayedLines = replayed.split(separator: "\n")
        #expect(delivered.count >= 40)
        let difference = zip(replayedLines, delivered).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            difference == nil,
            "line \(difference?.offset ?? 0): replayed \(difference?.element.0 ?? "")\n delivered \(difference?.element.1 ?? "")")
        #expect(replayedLines.count == delivered.count, "\(recording.path)")
    }

    /// A realtime session (its clock keeps its thread busy) gets taps, `Close` and calls after it
    /// without the client waiting between them, 60 times: every call is answered, `Close` with
    /// success and each later call with `UnknownObject`, whether the session's thread had taken it
    /// or it still waited in the queue. (Once, the connection thread could see the request to
    /// close before the reply was handed over, and drop the reply: a client waited forever.)
    @Test func everyCallAroundAPipelinedCloseIsAnswered() throws {
        let bus = try PrivateBus()
        try bus.serve([])
        let file = Rehearse.packageRoot.appendingPathComponent("Scenarios/login-animator/keyboard-lifts-form.yaml").path
        let result = try client(bus, ["close", file, "60"])
        #expect(
            result.output
                == #"{"Close: answered": 60, "Get: org.freedesktop.DBus.Error.UnknownObject": 180, "Inject: answered": 180}"#
                + "\n",
            "\(result.errorOutput)")
    }

    /// Calls `Get` on `path` until it is refused as unknown (the service sees the client go within
    /// a moment), for up to 2 s; returns the last error output.
    private func waitForGone(
        _ path: String, bus: PrivateBus, address: String? = nil,
        run: ([String]) throws -> CommandResult
    ) throws -> String {
        let target = address.map { ["--address", $0] } ?? ["--session"]
        var last = ""
        for _ in 0..<100 {
            let result = try run(
                ["call"] + target + [
                    "--dest", "org.rehearse.Simulator", "--object-path", path,
                    "--method", "org.rehearse.Simulator1.Get", "time",
                ])
            last = result.errorOutput
            // Until then, the session is another client's: AccessDenied.
            if last.contains("UnknownObject") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return last
    }
}
