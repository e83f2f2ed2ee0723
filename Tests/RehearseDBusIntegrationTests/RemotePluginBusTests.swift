import Foundation
import IntegrationTestSupport
import Testing

/// Issue 28: a plugin registers with a created session of `rehearse serve` over the bus
/// (`RegisterPlugin` on the session) and takes part in lockstep; its faults are its session's
/// alone. The plugin and the driver are `bus_plugin.py`, two jeepney connections.
@Suite(.serialized) struct RemotePluginBusTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/bus_plugin.py")
        .path

    private func run(_ mode: String) throws -> CommandResult {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        return try bus.run("/usr/bin/env", ["python3", Self.client, mode])
    }

    @Test func aRegisteredPluginAnswersEachTapInLockstep() throws {
        let result = try run("count")
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("tap ") }.count == 2, "\(result.output)")
        // Each tap is followed at once by the plugin's answer: lockstep, not after the fact.
        let names = lines.compactMap { $0.split(separator: " ").first }
        #expect(names == ["tap", "probe.tapped", "tap", "probe.tapped", "count"], "\(result.output)")
        #expect(lines.contains(#"probe.tapped {"count": 2}"#))
        #expect(lines.last == "count 2")
    }

    /// "At once": the failure names the client's leaving, which only the departure gives; waiting
    /// out the deadline would say "no answer within 1 s".
    @Test func aPluginWhoseClientLeavesFailsAtOnceAndTheServiceGoesOn() throws {
        let result = try run("leave")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains(#""error": "the plugin's client left during Deliver(tap)""#), "\(result.output)")
    }

    @Test func aSlowPluginHoldsUpItsOwnSessionOnly() throws {
        let result = try run("slow")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("other session answered while the slow one waited"), "\(result.output)")
        #expect(result.output.contains(#""error": "no answer within 1 s to Deliver(tap)""#), "\(result.output)")
    }

    /// A plugin registered with a session may read the scene as a command plugin does: `reads`,
    /// `RegisterPlugin`'s optional sixth argument, sent with each call, secure text redacted.
    /// Before, the session's `RegisterPlugin` took the five arguments only (InvalidArgs).
    @Test func aPluginRegisteredWithASessionGetsItsReads() throws {
        let result = try run("reads")
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"probe.read {"values": {"password.text": "<redacted>", "title.alpha": 1}}"#,
                "org.freedesktop.DBus.Error.InvalidArgs RegisterPlugin takes (ssa(sss)asa{sv}) or (ssa(sss)asa{sv}as), "
                    + "not (ssa(sss)asa{sv}s)",
            ], "\(result.output)\(result.errorOutput)")
    }

    /// Reads that name nothing, or hold control characters, are refused with the registration
    /// (`InvalidRegistration`, naming the path and why), and the session then takes a good one.
    /// Before, they were answered as registered and the plugin was never installed, with nothing
    /// said to it or to the session's owner.
    @Test func readsThatNameNothingAreRefusedWhenThePluginRegisters() throws {
        let result = try run("bad-reads")
        #expect(result.status == 0, "\(result.errorOutput)")
        let refused = "org.rehearse.Error.InvalidRegistration plugin 'probe' reads path"
        let names = "a path is dot-separated names, such as title.frame.y"
        let control =
            "org.rehearse.Error.InvalidRegistration a path a plugin reads holds no control character (C0, DEL, C1), found"
        let expected = [
            #"[""] \#(refused) '': \#(names)"#,
            #"["."] \#(refused) '.': \#(names)"#,
            #"["title."] \#(refused) 'title.': \#(names)"#,
            #"["nosuch.alpha"] \#(refused) 'nosuch.alpha': 'nosuch' is not a node, a plugin or a system path"#,
            #"["password.text.count"] \#(refused) 'password.text.count': 'password.text' has no parts"#,
            #"["password.presentation.text"] \#(refused) 'password.presentation.text': presentation values exist for "#
                + "frame, alpha, contentOffset, contentSize, contentInset, scrollIndicatorInsets, zoomScale, strokeStart, "
                + "strokeEnd, not text",
            #"["title.children.count.count.count"] \#(refused) 'title.children.count.count.count': 'title.children' has no parts"#,
            // Its own state does not exist before it is installed (docs/remote-plugins.md).
            #"["probe.k0"] \#(refused) 'probe.k0': 'probe' is not a node, a plugin or a system path"#,
            #"["title.alpha", "x\nready: forged\u001b[2J"] \#(control) U+000A"#,
            #"["title.alpha\u009b2J"] \#(control) U+009B"#,
            #"["title.alpha\u007f"] \#(control) U+007F"#,
            #"["tap", "probe.tapped"]"#,
        ]
        #expect(result.output.split(separator: "\n").map(String.init) == expected, "\(result.output)")
    }

    /// A registration answered whose plugin then cannot be installed (a subscription to no event,
    /// checked at install) is said to the session's owner as a fault is, `plugin.failed`, and the
    /// line serve writes about it escapes what the plugin sent. Before, the owner heard nothing,
    /// and the newline and escape codes went to serve's standard error as they were.
    @Test func aPluginThatCannotBeInstalledFailsOnTheBusAndServeEscapesItsLine() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"], errorOutput: "serve.log")
        let result = try bus.run("/usr/bin/env", ["python3", Self.client, "bad-subscription"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "ok", "\(result.output)")
        #expect(
            lines.dropFirst().contains {
                $0.hasPrefix(#"plugin.failed {"error": "probe: "#) && $0.hasSuffix(#""plugin": "probe"}"#)
            },
            "\(result.output)")
        let log = bus.contents(of: "serve.log")
        #expect(log.contains(#"tap\u{A}ready: forged\u{1B}[2J"#), "\(log)")
        #expect(!log.contains("\u{1B}") && !log.split(separator: "\n").contains { $0.hasPrefix("ready:") }, "\(log)")
    }

    @Test func theDefaultSessionTakesNoPlugin() throws {
        let result = try run("default")
        #expect(
            result.output.hasPrefix("org.rehearse.Error.NotPermitted plugins register with a created session"),
            "\(result.output)\(result.errorOutput)")
    }

    /// The recording of the default session of `serve --scenario` with the command plugin `item`
    /// and two taps, the trace of `rehearse run` of it, and how many events the session delivered.
    static func recordAndReplay(_ item: String) throws -> (
        recording: String, replay: CommandResult, trace: [Substring], count: String
    ) {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("steady.yaml")
        try Data(
            """
            name: a command plugin served
            scene: paper-login
            plugins:
              - \(item)
            steps: []
            """.utf8
        ).write(to: file)
        let recordings = bus.folder.appendingPathComponent("recordings")
        let service = try bus.serve(["--mode", "manual", "--scenario", file.path, "--record", recordings.path])
        for y in [200, 240] {
            #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'x': <160.0>, 'y': <\(y).0>}"]).status == 0)
        }
        #expect(try bus.gdbus("org.rehearse.Simulator1.Advance", ["0.5"]).status == 0)
        let count = try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
        PrivateBus.terminate(service)
        let recording = try String(contentsOf: recordings.appendingPathComponent("default.yaml"), encoding: .utf8)
        let trace = bus.folder.appendingPathComponent("replay.jsonl")
        let replay = try Rehearse.run(
            ["run", recordings.appendingPathComponent("default.yaml").path, "--trace", trace.path],
            in: URL(fileURLWithPath: "/"))
        let lines = (try? String(contentsOf: trace, encoding: .utf8))?.split(separator: "\n") ?? []
        return (recording, replay, lines, count)
    }

    /// `serve --scenario` starts the file's command plugin; the default session's recording keeps
    /// it (its command and folder), and `rehearse run` of the recording, starting the same program
    /// again, delivers what the session delivered, event for event.
    @Test func aRecordedSessionWithACommandPluginReplaysToTheSameTrace() throws {
        let plugin = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/fault_plugin.py").path
        let (text, replay, lines, count) = try Self.recordAndReplay("{id: steady, command: [python3, \(plugin), well]}")
        #expect(text.contains(#""command": ["python3", "\#(plugin)", "well"]"#), "\(text)")
        #expect(!text.contains(#""reads":"#), "\(text)")
        #expect(replay.status == 0, "\(replay.output)\(replay.errorOutput)")
        #expect(lines.filter { $0.contains(#""name":"fault.seen""#) }.count == 2, "\(lines)")
        #expect(count == "(<uint64 \(lines.count)>,)\n", "the session delivered \(count), the replay \(lines.count)")
    }

    /// Issue 39: the recording keeps a command plugin's `reads:`, so the replay's plugin reads them too.
    @Test func aRecordedSessionKeepsTheReadsItsFileGaveAPlugin() throws {
        let (text, replay, lines, count) = try Self.recordAndReplay(
            "{id: reads, command: [python3, \(Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/reads_plugin.py").path)], reads: [title.alpha]}"
        )
        #expect(text.contains(#""reads": ["title.alpha"]"#), "\(text)")
        #expect(replay.status == 0, "\(replay.output)\(replay.errorOutput)")
        #expect(
            lines.filter { $0.contains(#""name":"reads.seen","#) && $0.contains(#"{"values":{"title.alpha":1}}"#) }.count == 4,
            "\(lines)")
        #expect(count == "(<uint64 \(lines.count)>,)\n", "the session delivered \(count), the replay \(lines.count)")
    }
}
