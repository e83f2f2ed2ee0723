import Foundation
import RehearseCore
@testable import RehearseDBus
import RehearsePlugins
import RehearseScenario
import Testing
@testable import RehearseView

/// The viewer's side on the service's thread, driven by hand: which frames it sends and when.
@Suite struct LiveViewerTests {
    private func session(plugins: [String] = ["login-animator"]) throws -> SimulatorSession {
        let setup = try ScenarioLoader(registry: shippedPlugins).loadSetup(device: nil, plugins: plugins)
        return try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
    }

    /// Everything the hub sent a page, as decoded JSON objects, once the page has left.
    private func messages(_ stream: AsyncStream<String>, after leaving: () -> Void) async -> [[String: Any]] {
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
    /// second of wall time however often the loop comes round.
    @Test func aTapIsShownAtOnceAndMovementAtMostSixtyTimesASecond() async throws {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let session = try session()
        let (client, stream) = try #require(viewer.hub.connect())
        viewer.serve(session)
        #expect(viewer.hub.submit(.tap(Point(x: 160, y: 270)), from: client))
        viewer.serve(session)
        let start = ContinuousClock.now
        var rounds = 0
        while ContinuousClock.now - start < .milliseconds(200) {
            session.simulation.advance(by: .seconds(0.001)!)  // the keyboard keeps moving for 0.25 s of simulated time
            viewer.serve(session)
            rounds += 1
        }
        let sent = await messages(stream) { viewer.hub.disconnect(client) }
        let frames = sent.filter { $0["type"] as? String == "frame" }
        #expect(frames.count >= 2)
        #expect(frames[1]["firstResponder"] as? String == "username", "the frame right after the tap shows it")
        #expect(rounds > 100, "the loop came round often")
        // 200 ms at 60 frames a second is 12 frames; one more for the tap's, and one for rounding.
        #expect(frames.count <= 2 + 13, "\(frames.count) frames in 200 ms")
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
}
