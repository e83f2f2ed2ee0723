import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import RehearseSession
import Testing

@testable import RehearseView

/// The viewer's side on the service's thread, driven by hand: which frames it sends and when.
@Suite struct LiveViewerTests {
    private func session(plugins: [String] = ["login-animator"]) throws -> SimulatorSession {
        let setup = try ScenarioLoader(registry: shippedPlugins).loadSetup(device: nil, plugins: plugins)
        return try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
    }

    /// Everything the hub sent a page, as decoded JSON objects, once the page has left.
    private func messages(_ stream: PageMessages, after leaving: () -> Void) async -> [[String: Any]] {
        leaving()
        var result: [[String: Any]] = []
        for await text in stream {
            result.append((try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:])
        }
        return result
    }

    @Test func aNewcomerGetsHelloAndAFrameAndAnIdleSceneNothingMore() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        viewer.serve(session)
        viewer.serve(session)
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.map { $0["type"] as? String } == ["hello", "frame"])
        #expect(viewer.waitMilliseconds(idle: 50) == 50)
        // Events with no page connected do not keep the service's loop awake.
        try session.simulation.inject(.network(NetworkChange(online: false)))
        viewer.serve(session)
        #expect(viewer.waitMilliseconds(idle: 50) == 50)
    }

    /// A command's effect is sent at once; while the keyboard moves, frames follow at most 60 a
    /// second of wall time however often the loop comes round. The wall clock is the test's own:
    /// 200 rounds a millisecond apart, each moving the simulation a tenth of a millisecond (the
    /// keyboard moves for 0.25 s of simulated time, so it moves throughout).
    @Test func aTapIsShownAtOnceAndMovementAtMostSixtyTimesASecond() async throws {
        final class WallClock: @unchecked Sendable {
            // Unchecked: read and moved on the test's thread only, which runs the viewer too.
            var now = ContinuousClock.now
        }
        let wall = WallClock()
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins, now: { wall.now })
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        #expect(viewer.hub.submit(.tap(Point(x: 160, y: 270)), from: client))
        viewer.serve(session)
        for _ in 0..<200 {
            wall.now += .milliseconds(1)
            session.simulation.advance(by: .seconds(0.0001)!)
            #expect(session.simulation.keyboard.isMoving)
            viewer.serve(session)
        }
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        let frames = sent.filter { $0["type"] as? String == "frame" }
        #expect(frames.count >= 2)
        #expect(frames[1]["firstResponder"] as? String == "username", "the frame right after the tap shows it")
        // The first page's frame and the tap's, then one frame at least 16.7 ms (1/60 s) after
        // the one before: on whole milliseconds at 17, 34, ..., 187 ms, eleven in 200 ms.
        #expect(frames.count == 2 + 11, "\(frames.count) frames in 200 ms")
    }

    /// The page's "Status bar" button taps the status bar: the one scroll view on screen goes to its top.
    @Test func theStatusBarButtonScrollsTheScrollViewToItsTop() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session(plugins: [])
        var list = Node(id: "list", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 320, height: 568))
        list.contentSize = Size(width: 320, height: 3000)
        list.contentOffset = Point(x: 0, y: 1000)
        try session.simulation.scene.add(list)
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        #expect(viewer.hub.submit(.statusBarTap, from: client))
        viewer.serve(session)
        session.simulation.advance(by: .seconds(2)!)
        _ = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(session.simulation.scene["list"]?.contentOffset == .zero)
    }

    @Test func aReadOnlyViewerRefusesChangesAndSaysWhy() async throws {
        let viewer = LiveViewer(readOnly: true, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        #expect(viewer.hub.submit(.tap(Point(x: 160, y: 270)), from: client))
        viewer.serve(session)
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.contains { $0["type"] as? String == "error" && ($0["message"] as? String)?.contains("read-only") == true })
        #expect(session.simulation.scene.firstResponder == nil)
        #expect(session.simulation.bus.lastSequence == 0, "nothing was delivered")
    }

    /// A page that connects between the viewer greeting newcomers and sending a frame gets its
    /// hello first all the same, and its commands wait for it.
    @Test func aPageGetsNothingBeforeItsHello() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (first, firstStream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        let (late, lateStream) = try #require(viewer.hub.connect())
        #expect(viewer.hub.submit(.returnKey, from: late))  // no field is focused: an error
        viewer.hub.broadcast(#"{"type":"frame"}"#)  // as a frame sent while the page connects
        viewer.hub.send(ViewerHub.errorMessage("a bad command"), to: late)  // as the server answers one at once
        #expect(viewer.hub.takeCommands().isEmpty, "the late page's command waits for its hello")
        viewer.serve(session)
        let sent = await messages(lateStream) { viewer.hub.disconnect(late) }
        #expect(sent.first?["type"] as? String == "hello", "\(sent.map { $0["type"] ?? "?" })")
        #expect(sent.contains { $0["message"] as? String == "a bad command" }, "an answer sent before the hello follows it")
        #expect(
            sent.contains { $0["type"] as? String == "error" && $0["message"] as? String != "a bad command" },
            "its command was taken after the hello")
        _ = await messages(firstStream) { viewer.hub.disconnect(first) }
    }

    /// A page slow to read loses its oldest frames, never its hello.
    @Test func aSlowPageKeepsItsHello() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        for index in 0..<(ViewerHub.clientBacklog * 2) { viewer.hub.broadcast(#"{"type":"frame","index":\#(index)}"#) }
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.first?["type"] as? String == "hello")
        #expect(sent.count == 1 + ViewerHub.clientBacklog)
        #expect(sent.last?["index"] as? Int == ViewerHub.clientBacklog * 2 - 1, "the newest frame is kept")
    }

    /// A page's fingers are its own, on the screen, and lifted when it leaves. A mouse let go past
    /// the screen's edge used to be refused and its finger stayed down, so that every later drag
    /// of the page was refused ("touch 0 is already down"); a page's finger 0 was every page's,
    /// which another page could move or lift; and a page that left mid-drag kept its fingers down
    /// for good (ten kept every page and the default session's D-Bus clients from touching).
    @Test func aPagesFingersAreItsOwnKeptOnTheScreenAndCancelledWhenItLeaves() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        var touches: [(TouchPhase, Touch)] = []
        session.simulation.bus.subscribe(.all, owner: "test") { delivered in
            if let touch = delivered.event.touch { touches.append(touch) }
        }
        let (first, firstStream) = try #require(viewer.hub.connect())
        let (second, secondStream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        let inside = Point(x: 10, y: 10)
        for (client, command) in [
            (first, ViewerCommand.touch(.began, id: 0, inside)), (first, .touch(.ended, id: 0, Point(x: -50, y: 900))),
            (first, .touch(.began, id: 0, inside)), (second, .touch(.began, id: 0, inside)),
            (second, .touch(.ended, id: 1, inside)), (second, .touch(.began, id: 0, inside)),
        ] {
            #expect(viewer.hub.submit(command, from: client))
        }
        viewer.serve(session)
        #expect(
            touches.map { "\($0.0) \($0.1.id) \($0.1.point.x) \($0.1.point.y)" }
                == ["began 0 10.0 10.0", "ended 0 0.0 568.0", "began 0 10.0 10.0", "began 1 10.0 10.0"])
        viewer.hub.disconnect(second)
        viewer.serve(session)
        #expect(touches.last.map { "\($0.0) \($0.1.id)" } == "cancelled 1")
        #expect(Set(session.simulation.touchesDown.keys) == [0])
        let secondSent = await messages(secondStream) {}
        let errors = secondSent.compactMap { $0["type"] as? String == "error" ? $0["message"] as? String : nil }
        #expect(errors == ["touch 1 is not down; a touch begins with phase began", "touch 0 is already down"])
        _ = await messages(firstStream) { viewer.hub.disconnect(first) }
        viewer.serve(session)
        #expect(session.simulation.touchesDown.isEmpty)
    }

    /// A page's finger lifted by someone else (a D-Bus client of the default session, a plugin)
    /// is no longer the page's. The page kept it as its own, so once another put that finger down
    /// again, the page's drag moved that finger, its lift lifted it, and the page leaving
    /// cancelled it.
    @Test func aPagesFingerLiftedByAnotherIsNoLongerThePages() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (page, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        let inside = Point(x: 10, y: 10)
        let elsewhere = Point(x: 100, y: 200)
        #expect(viewer.hub.submit(.touch(.began, id: 0, inside), from: page))
        viewer.serve(session)
        try session.simulation.inject(Event(.ended, Touch(id: 0, point: inside)))
        try session.simulation.inject(Event(.began, Touch(id: 0, point: elsewhere)))
        for phase in [TouchPhase.moved, .ended] { #expect(viewer.hub.submit(.touch(phase, id: 0, inside), from: page)) }
        viewer.serve(session)
        #expect(session.simulation.touchesDown == [0: elsewhere], "the other's finger stays where it was")
        let sent = await messages(stream) { viewer.hub.disconnect(page) }
        viewer.serve(session)
        #expect(session.simulation.touchesDown == [0: elsewhere], "the page leaving leaves the other's finger down")
        let errors = sent.compactMap { $0["type"] as? String == "error" ? $0["message"] as? String : nil }
        #expect(errors == Array(repeating: "touch 0 is not down; a touch begins with phase began", count: 2))
    }

    /// A ctrl-drag's two fingers move in one `moves` message: one touch event, so their distance
    /// never reads one moved and the other not yet. 100 points apart, each moved 10 outward: the
    /// pinch begins at 120 / 100 = 1.2 with its centre where it was, and that is its only event
    /// (moved one at a time, it began at 1.1 and changed to 1.2).
    @Test func aPagesFingersThatMoveAtOnceAreOneTouchEvent() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        var pinches: [Fields] = []
        session.simulation.bus.subscribe(.name("gesture.pinch"), owner: "test") { pinches.append($0.event.fields) }
        let (page, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        for command in [
            ViewerCommand.touch(.began, id: 0, Point(x: 110, y: 300)), .touch(.began, id: 1, Point(x: 210, y: 300)),
            .moves([FingerMove(id: 0, point: Point(x: 100, y: 300)), FingerMove(id: 1, point: Point(x: 220, y: 300))]),
            .moves([FingerMove(id: 0, point: Point(x: 90, y: 300)), FingerMove(id: 5, point: Point(x: 230, y: 300))]),
        ] {
            #expect(viewer.hub.submit(command, from: page))
        }
        viewer.serve(session)
        #expect(pinches.count == 1)
        #expect(pinches.first?["state"] == "began")
        #expect(pinches.first?["scale"]?.number.map { abs($0 - 1.2) < 1e-9 } == true)
        #expect(pinches.first?["center"] == ["x": 160.0, "y": 300.0])
        // A move of a finger the page does not have down moves none of them.
        #expect(session.simulation.touchesDown.values.map(\.x).sorted() == [100, 220])
        let sent = await messages(stream) { viewer.hub.disconnect(page) }
        let errors = sent.compactMap { $0["type"] as? String == "error" ? $0["message"] as? String : nil }
        #expect(errors == ["touch 5 is not down; a touch begins with phase began"])
    }

    /// A box fading over `seconds`, the display link ticking at 60 Hz all along: 5,000 s take
    /// seconds to simulate.
    private func fade(seconds: Int) throws -> Scenario {
        let yaml = """
            name: A box fading
            scene:
              nodes:
                - {id: box, kind: view, frame: [0, 0, 100, 100]}
            steps:
              - animate: {target: box, property: alpha, to: 0, duration: \(seconds)}
              - wait: \(seconds)
              - expect: {box.alpha: 0}
            """
        return try ScenarioLoader(registry: shippedPlugins).load(data: Data(yaml.utf8), file: "fade.yaml")
    }

    /// A viewer of `scenario` on the default session, with one page connected and greeted.
    private func viewerWithPage(of scenario: Scenario, readOnly: Bool = false) throws
        -> (viewer: LiveViewer, session: SimulatorSession, client: Int, stream: PageMessages)
    {
        let viewer = LiveViewer(readOnly: readOnly, scenario: scenario, registry: shippedPlugins)
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        return (viewer, session, client, stream)
    }

    /// Starting a viewer of a long run and scrubbing it do not hold the service's thread: the run
    /// takes seconds to simulate, and neither the viewer's start nor the loop's round that takes
    /// the scrub waits for it (the run's events are not marked yet, the scene is not there yet).
    @Test func startingAndScrubbingALongRunDoNotHoldTheServicesThread() async throws {
        let (viewer, session, client, stream) = try viewerWithPage(of: try fade(seconds: 5_000))
        let timeline = try #require(viewer.timeline)
        #expect(timeline.markers.count == timeline.timeline.expectationMarkers.count, "only the expectations are known at start")
        #expect(viewer.hub.submit(.scrub(seconds: 4_999), from: client))
        viewer.serve(session)
        #expect(!viewer.isShowingRun, "the scene at 4,999 s is simulated elsewhere")
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.map { $0["type"] as? String } == ["hello", "frame", "frame"])
    }

    /// The scrubbed scene and the run's marked events come once simulated, on the loop's next
    /// rounds.
    @Test func theScrubbedSceneAndTheRunsMarkersComeWhenSimulated() async throws {
        let (viewer, session, client, stream) = try viewerWithPage(of: try fade(seconds: 2))
        #expect(viewer.hub.submit(.scrub(seconds: 1.5), from: client))
        // Simulating two seconds takes milliseconds; a minute of rounds allows for a machine busy with other tests.
        #expect(
            try await eventually {
                viewer.serve(session)
                return viewer.isShowingRun && viewer.timeline?.hasMarkedRun == true
            })
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.contains { $0["type"] as? String == "frame" && $0["review"] as? Double == 1.5 }, "the scene at 1.5 s")
        let timelines = sent.filter { $0["type"] as? String == "timeline" }.compactMap { $0["timeline"] as? [String: Any] }
        let kinds = timelines.flatMap { ($0["markers"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } }
        #expect(kinds.contains("event"), "the run's events marked")
    }

    @Test func aReadOnlyViewerRefusesScrubbing() async throws {
        let (viewer, session, client, stream) = try viewerWithPage(of: try fade(seconds: 1), readOnly: true)
        #expect(viewer.hub.submit(.scrub(seconds: 0.5), from: client))
        viewer.serve(session)
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        #expect(sent.contains { $0["type"] as? String == "error" && ($0["message"] as? String)?.contains("read-only") == true })
        #expect(!sent.contains { $0["review"] as? Double == 0.5 })
    }
}
