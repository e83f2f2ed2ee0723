import Foundation
import IntegrationTestSupport
import Testing

/// `Gesture` and `IsVisible` on `rehearse serve`, on a private bus: gestures on nodes run as the
/// scenario steps run them (the Python client's `drag(on=...)`, ...), and gdbus, a peer nobody
/// here wrote, calls them.
@Suite(.serialized) struct GestureDBusTests {
    static let scene = """
        scene:
          nodes:
            - {id: list, kind: scrollView, frame: [0, 0, 320, 400], contentSize: [320, 3000]}
            - {id: card, kind: view, frame: [0, 400, 320, 168], accessibilityLabel: Card}
        """

    /// The file's steps and the client's calls are the same gestures; the session's events and the
    /// run's trace, each as `{seq, time, name, fields}` JSON lines, are the same, byte for byte.
    @Test func gesturesOverDBusDeliverTheStepsTraceEventForEvent() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let file = bus.folder.appendingPathComponent("gestures.yaml")
        try Data(
            """
            name: gestures on nodes
            \(Self.scene)
            steps:
              - drag: {on: list, by: [0, -150]}
              - fling: {on: list, velocity: [0, -1200]}
              - swipe: {on: {label: Card}, direction: left, distance: 100}
              - long-press: {target: card, duration: 0.6}
              - pinch: {on: card, scale: 1.5}
              - drag: {on: list, at: [10, 390], by: [0, -300], duration: 0.5, hold: 0.1}
              - wait: 3
            """.utf8
        ).write(to: file)
        let script = """
            import json, sys
            sys.path.insert(0, '\(Rehearse.packageRoot.appendingPathComponent("clients/python").path)')
            import rehearse
            session = rehearse.Simulator().session(scenario=open(sys.argv[1]).read(), mode="manual")
            session.drag(on="list", by=(0, -150))
            session.fling(on="list", velocity=(0, -1200))
            session.swipe(label="Card", direction="left", distance=100)
            session.long_press(on="card", duration=0.6)
            session.pinch(on=rehearse.node("card"), scale=1.5)
            session.drag(on="list", at=(10, 390), by=(0, -300), duration=0.5, hold=0.1)
            session.advance(3)
            for event in session.take_events():
                print(json.dumps({"seq": event.sequence, "time": event.time, "name": event.name, "fields": event.fields}, sort_keys=True))
            """
        let client = bus.folder.appendingPathComponent("gestures.py")
        try Data(script.utf8).write(to: client)
        let delivered = try bus.run("/usr/bin/env", ["python3", client.path, file.path])
        #expect(delivered.status == 0, "\(delivered.errorOutput)")
        let trace = bus.folder.appendingPathComponent("trace.jsonl")
        let run = try Rehearse.run(["run", file.path, "--trace", trace.path])
        #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
        let stepped = try bus.eventLines(ofTrace: trace)
        let lines = delivered.output.split(separator: "\n")
        for (name, count) in [("scroll.willEndDragging", 3), ("gesture.swipe", 1), ("gesture.longPress", 2)] {
            #expect(lines.filter { $0.contains("\"name\": \"\(name)\"") }.count == count, "\(name): \(delivered.output)")
        }
        #expect(lines.contains { $0.contains(#""name": "gesture.pinch""#) && $0.contains(#""state": "ended""#) })
        #expect(lines.count > 100)
        #expect(delivered.output == stepped)
    }

    /// gdbus calls `Gesture` with an id and with a query, and `IsVisible`; every refusal is named,
    /// injects nothing and leaves the clock where it was, and the service goes on.
    @Test func gdbusDragsAndAsksAndEveryRefusalIsNamedAndChangesNothing() throws {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("scene.yaml")
        try Data("name: a list and a card\n\(Self.scene)\nsteps: []\n".utf8).write(to: file)
        try bus.serve(["--mode", "manual", "--scenario", file.path])
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Gesture", ["drag", "{'on': <'list'>, 'by': <[0.0, -150.0]>}"]).output
                == "(0.29999999999999999,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output == "(<133.33333333333334>,)\n")
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Gesture", ["long-press", "{'on': <{'label': <'Card'>}>, 'duration': <0.2>}"])
                .output
                == "(0.5,)\n")
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.IsVisible", ["<'card'>"]).output
                == "(true, '320 × 168 pt of it at (0, 400), 100 %')\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.IsVisible", ["<'gone'>"]).output == "(false, 'not in the scene')\n")
        let count = try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
        let refusals: [(String, [String], String, String)] = [
            (
                "Gesture", ["drag", "{'on': <'nope'>, 'by': <[0.0, 1.0]>}"], "NodeNotFound",
                "drag: no node matches {id: \"nope\"}; nearest: 'list'"
            ),
            (
                "Gesture", ["drag", "{'on': <{'text': <'Log in'>}>, 'by': <[0.0, 1.0]>}"], "NodeNotFound",
                "no node matches {text: \"Log in\"}"
            ),
            ("Gesture", ["drag", "{'on': <'list'>}"], "InvalidField", "drag needs on: NODE and by: [dx, dy]"),
            (
                "Gesture", ["drag", "{'on': <'list'>, 'by': <[0.0, 1.0]>, 'extra': <1>}"], "InvalidField",
                "unknown key 'extra' in drag; expected one of: on, at, by, duration, hold"
            ),
            (
                "Gesture", ["drag", "{'on': <'list'>, 'by': <[0.0, -300.0]>}"], "InvalidField",
                "the gesture on list would take a finger to (160, -16.666666666666657), off the 320 × 568 screen"
            ),
            (
                "Gesture", ["drag", "{'on': <'list'>, 'by': <[0.0, -10.0]>, 'duration': <1e7>}"], "InvalidField",
                "duration must be at most 1000000 seconds"
            ),
            (
                "Gesture", ["fling", "{'on': <'list'>, 'velocity': <[0.0, 0.0]>}"], "InvalidField",
                "velocity must be at most 10000000 points per second"
            ),
            (
                "Gesture", ["pinch", "{'on': <'card'>, 'scale': <1000.0>}"], "InvalidField",
                "scale must be more than 0 and at most 100, found 1000"
            ),
            (
                "Gesture", ["swipe", "{'on': <'card'>, 'direction': <'sideways'>}"], "InvalidField",
                "direction must be one of up, down, left, right"
            ),
            ("Gesture", ["drog", "{'on': <'list'>}"], "InvalidField", "unknown gesture 'drog' (did you mean 'drag'?)"),
            (
                "Gesture", ["long-press", "{'on': <'card'>, 'at': <[1.0, 500.0]>}"], "InvalidField",
                "card: at (1, 500) is outside its visible part"
            ),
            (
                "Gesture", ["drag", "{'on': <5>, 'by': <[0.0, 1.0]>}"], "InvalidField",
                "must be a node id or a query mapping, found an integer"
            ),
            (
                "Gesture", ["drag", "{'on': <{'text': <'\(String(repeating: "x", count: 10_001))'>}>, 'by': <[0.0, 1.0]>}"],
                "InvalidField",
                "must be at most 10000 Unicode scalars"
            ),
            ("Gesture", [String(repeating: "drag", count: 20_000), "{'on': <'list'>}"], "InvalidField", "the limit is 65536"),
            (
                "Gesture", ["drag", "{'on': <'list\\u001b[31m'>, 'by': <[0.0, 1.0]>}"], "NodeNotFound",
                "no node matches {id: \"list\\u001b[31m\"}"
            ),
            ("IsVisible", ["<{'kind': <'knob'>}>"], "InvalidField", "query: "),
            ("IsVisible", ["<{'kind': <'view'>, 'index': <1>}>"], "NodeNotFound", "IsVisible: "),
        ]
        for (method, arguments, error, message) in refusals {
            let refused = try bus.gdbus("org.rehearse.Simulator1.\(method)", arguments)
            #expect(
                refused.errorOutput.contains("org.rehearse.Error.\(error)") && refused.errorOutput.contains(message),
                "\(method) \(arguments): \(refused.errorOutput)")
        }
        #expect(try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output == count)
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.5>,)\n")
    }

    /// A read-only service answers `IsVisible` and refuses `Gesture`; a realtime clock refuses it
    /// as it refuses `Advance`.
    @Test(arguments: [["--read-only"], []]) func readOnlyAndRealtimeRefuseAGesture(flags: [String]) throws {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("scene.yaml")
        try Data("name: a list and a card\n\(Self.scene)\nsteps: []\n".utf8).write(to: file)
        try bus.serve((flags.isEmpty ? [] : ["--mode", "manual"]) + flags + ["--scenario", file.path])
        let refused = try bus.gdbus("org.rehearse.Simulator1.Gesture", ["drag", "{'on': <'list'>, 'by': <[0.0, -150.0]>}"])
        #expect(
            refused.errorOutput.contains(flags.isEmpty ? "org.rehearse.Error.WrongMode" : "org.rehearse.Error.NotPermitted"),
            "\(refused.errorOutput)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.IsVisible", ["<{'label': <'Card'>}>"]).output.hasPrefix("(true, "))
        #expect(
            try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
                == "(<uint64 0>,)\n")
    }
}
