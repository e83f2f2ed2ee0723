import Foundation
import IntegrationTestSupport
import Testing

/// Touch over D-Bus: `Inject` takes the touch events (they are built-in events), and the Python
/// client's `drag`, `swipe`, `long_press` and `pinch` write the streams the scenario steps write
/// (`InjectAt`, the fingers of one frame one touch event).
@Suite(.serialized) struct TouchDBusTests {
    static let scene = """
        name: touch over D-Bus
        scene:
          nodes:
            - {id: list, kind: scrollView, frame: [0, 0, 320, 400], contentSize: [320, 3000]}
            - {id: card, kind: view, frame: [0, 400, 320, 168]}
        steps: []
        """

    @Test func touchesInjectedOverDBusDragAndFlingAScrollViewAsTheStepsDo() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let script = """
            import sys
            sys.path.insert(0, '\(Rehearse.packageRoot.appendingPathComponent("clients/python").path)')
            import rehearse
            simulator = rehearse.Simulator()
            session = simulator.session(scenario='''\(Self.scene)''', mode="manual")
            # As fling-normal-rate.yaml: 300 points up in 0.25 s, tracked from the first frame
            # (280 points), let go at 1,200 points per second, at rest 280 + 1200 / 2.002 = 879.4.
            session.drag((160, 380), (160, 80), 0.25)
            print(round(session.get("list.contentOffset.y"), 3))
            session.advance(5)
            print(round(session.get("list.contentOffset.y"), 1))
            names = [event.name for event in session.take_events()]
            print(names.count("touch.moved"), names.count("scroll.willEndDragging"), names.count("scroll.didEndDecelerating"))
            session.swipe((300, 480), "left")
            session.long_press((160, 480), 0.6)
            session.pinch((160, 480), 1.5, 0.5)
            events = session.take_events()
            print([event.fields["direction"] for event in events if event.name == "gesture.swipe"])
            print([event.fields["state"] for event in events if event.name == "gesture.longPress"])
            print([round(event.fields["scale"], 6) for event in events if event.name == "gesture.pinch" and event.fields["state"] == "ended"])
            # Both fingers' InjectAt for a frame are one touch event: one gesture.pinch a frame (30), then ended.
            print(len([event for event in events if event.name == "gesture.pinch"]))
            # Injected now, a finger that lifts where it came down taps the node under it.
            session.inject("touch.began", id=3, x=160.0, y=480.0)
            session.inject("touch.ended", id=3, x=160.0, y=480.0)
            print([event.fields["target"] for event in session.take_events() if event.name == "tap"])
            fling = {"state": "ended", "target": "list", "translation": {"x": 0.0, "y": 0.0}, "velocity": {"x": 0.0, "y": 1e308},
                     "location": {"x": 160.0, "y": 200.0}}
            pinch = {"state": "changed", "target": "list", "velocity": 0.0, "center": {"x": 160.0, "y": 200.0}}
            for name, fields in (("touch.moved", {"id": 7, "x": 1.0, "y": 1.0}), ("touch.began", {"id": 1, "x": 400.0, "y": 1.0}),
                                 ("gesture.pan", fling), ("gesture.pinch", {**pinch, "scale": 1e308}),
                                 ("gesture.pinch", {**pinch, "scale": 2.0, "velocity": -1e6})):
                try:
                    session.inject(name, **fields)
                except rehearse.RehearseError as error:
                    print(error.name, error.message)
            """
        let file = bus.folder.appendingPathComponent("touch.py")
        try Data(script.utf8).write(to: file)
        let result = try bus.run("/usr/bin/env", ["python3", file.path])
        #expect(
            result.output == """
                280.0
                879.4
                15 1 1
                ['left']
                ['began', 'ended']
                [1.5]
                31
                ['card']
                org.rehearse.Error.InvalidField touch.moved: touch 7 is not down; a touch begins with touch.began
                org.rehearse.Error.InvalidField touch.began: touch at (400.0, 1.0) is off the 320.0 × 568.0 screen
                org.rehearse.Error.InvalidField gesture.pan: velocity (0.0, 1e+308) is faster than 10000000 points per second on an axis, the most a gesture may have
                org.rehearse.Error.InvalidField gesture.pinch: scale 1e+308 must be more than 0 and at most 100 (ScenarioLimits.pinchScale)
                org.rehearse.Error.InvalidField gesture.pinch: velocity -1000000 is faster than 100000 a second either way, the most a pinch's scale may change (ScenarioLimits.pinchVelocity)

                """, "\(result.errorOutput)")
    }

    /// The default session is shared: a client that put the screen's 10 fingers down and left used
    /// to keep them down for good, so that no client (nor a viewer page) could touch again. A
    /// caller's fingers are now cancelled when it leaves the bus, or drops its `--listen` connection.
    @Test(arguments: [false, true]) func aClientThatLeavesWithFingersDownHasThemCancelled(peer: Bool) throws {
        let bus = try PrivateBus()
        let target = peer ? try bus.servePeersOnly(["--mode", "manual"]).address : "SESSION"
        if !peer { try bus.serve(["--mode", "manual"]) }
        let script = """
            import subprocess, sys
            sys.path.insert(0, '\(Rehearse.packageRoot.appendingPathComponent("clients/python").path)')
            import rehearse
            if sys.argv[1:] == ["hold"]:
                session = rehearse.Simulator(bus='\(target)').default_session()
                for finger in range(10):
                    session.inject("touch.began", id=100 + finger, x=10.0, y=10.0)
                sys.exit(0)
            subprocess.run([sys.executable, __file__, "hold"], check=True)
            session = rehearse.Simulator(bus='\(target)').default_session()
            try:
                session.inject("touch.began", id=1, x=20.0, y=20.0)
                session.inject("touch.ended", id=1, x=20.0, y=20.0)
                print("touched")
            except rehearse.RehearseError as error:
                print(error.name, error.message)
            """
        let file = bus.folder.appendingPathComponent("leave.py")
        try Data(script.utf8).write(to: file)
        let result = try bus.run("/usr/bin/env", ["python3", file.path])
        #expect(result.output == "touched\n", "\(result.errorOutput)")
    }
}
