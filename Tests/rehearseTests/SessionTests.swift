import Foundation
import Testing

/// Sessions on `rehearse serve`: each client its own simulation, driven by jeepney (Python) clients
/// on a private bus and over `--listen`.
@Suite(.serialized) struct SessionTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/session_client.py").path

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
            let script = "python3 '\(Self.client)' trace login > login.txt & python3 '\(Self.client)' trace panner > panner.txt; wait"
            let both = try bus.run("/bin/bash", ["-c", "cd '\(bus.folder.path)'; \(script)"])
            #expect(both.status == 0, "\(both.errorOutput)")
            #expect(bus.contents(of: "login.txt") == loginAlone.output, "round \(round)")
            #expect(bus.contents(of: "panner.txt") == pannerAlone.output, "round \(round)")
        }
        // The default session saw none of it.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.0>,)\n")
        #expect(try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output == "(<uint64 0>,)\n")
    }

    @Test func aSessionEndsWhenItsClientLeavesTheBus() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let created = try client(bus, ["create"])
        let path = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == "/org/rehearse/Simulator/sessions/1", "\(created.errorOutput)")
        let answer = try waitForGone(path, bus: bus) { arguments in try bus.run("/usr/bin/gdbus", arguments) }
        #expect(answer.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(answer)")
        // The service goes on: a new session gets the next number.
        #expect(try client(bus, ["create"]).output == "/org/rehearse/Simulator/sessions/2\n")
    }

    @Test func aPeersSessionEndsWhenThePeerDisconnects() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let created = try client(bus, ["create", address])
        let path = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == "/org/rehearse/Simulator/sessions/1", "\(created.errorOutput)")
        let answer = try waitForGone(path, bus: bus, address: address) { arguments in try bus.run("/usr/bin/gdbus", arguments) }
        #expect(answer.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(answer)")
    }

    /// Past the cap, `CreateSession` is refused with a `Limit` error; closing one makes room.
    @Test func theSessionCapGivesItsError() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let result = try client(bus, ["cap"])
        #expect(result.output == #"{"created": 32, "refused": "org.rehearse.Error.Limit", "closed": true, "again": "/org/rehearse/Simulator/sessions/33"}"# + "\n",
                "\(result.errorOutput)")
    }

    @Test func sessionsAreListedAndTheDefaultCannotBeClosed() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        // gdbus keeps its connection only for one call: create and introspect from one bash line
        // would lose the session, so the listing is checked through a session held by Python.
        let script = """
            import subprocess, sys
            sys.path.insert(0, '\(Rehearse.packageRoot.appendingPathComponent("clients/python").path)')
            import rehearse
            simulator = rehearse.Simulator()
            session = simulator.session(plugins=["panner"])
            print(session.path)
            tree = subprocess.run(["gdbus", "introspect", "--session", "--dest", "org.rehearse.Simulator",
                                   "--object-path", "/org/rehearse/Simulator", "--recurse"], capture_output=True, text=True).stdout
            print("sessions/1" in tree, "interface org.rehearse.Simulator1" in tree.split("node /org/rehearse/Simulator/sessions/1")[-1])
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
        #expect(result.output == """
            /org/rehearse/Simulator/sessions/1
            True True
            False
            org.rehearse.Error.NotPermitted
            org.freedesktop.DBus.Error.InvalidArgs
            
            """, "\(result.errorOutput)")
    }

    /// Sessions of `rehearse serve --record DIR`, one per plugin (set up from a bundled scenario),
    /// get 40 seeded random injections at random moments on a realtime clock; each recording,
    /// run by `rehearse run`, gives the trace the session delivered, event for event.
    @Test(arguments: ["login-animator/keyboard-lifts-form", "gateway/login-logout", "auto-scroll/form-flow", "panner/tilt-stream"])
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
        let normalise = """
            import json, sys
            for line in open(sys.argv[1]):
                event = json.loads(line)
                print(json.dumps({"seq": event["seq"], "time": float(event["time"]), "name": event["name"], "fields": event["fields"]}, sort_keys=True))
            """
        let replayed = try bus.run("/usr/bin/env", ["python3", "-c", normalise, trace.path])
        let delivered = session.output.split(separator: "\n")
        let replayedLines = replayed.output.split(separator: "\n")
        #expect(delivered.count >= 40)
        let difference = zip(replayedLines, delivered).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(difference == nil, "line \(difference?.offset ?? 0): replayed \(difference?.element.0 ?? "")\n delivered \(difference?.element.1 ?? "")")
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
        #expect(result.output == #"{"Close: answered": 60, "Get: org.freedesktop.DBus.Error.UnknownObject": 180, "Inject: answered": 180}"# + "\n",
                "\(result.errorOutput)")
    }

    /// Calls `Get` on `path` until it is refused (the service sees the client go within a moment),
    /// for up to 2 s; returns the last error output.
    private func waitForGone(_ path: String, bus: PrivateBus, address: String? = nil,
                             run: ([String]) throws -> CommandResult) throws -> String {
        let target = address.map { ["--address", $0] } ?? ["--session"]
        var last = ""
        for _ in 0..<100 {
            let result = try run(["call"] + target + ["--dest", "org.rehearse.Simulator", "--object-path", path,
                                                      "--method", "org.rehearse.Simulator1.Get", "time"])
            last = result.errorOutput
            if result.status != 0 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return last
    }
}
