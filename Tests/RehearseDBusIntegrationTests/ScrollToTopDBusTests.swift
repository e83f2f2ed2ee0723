import Foundation
import IntegrationTestSupport
import Testing

/// A tap on the status bar over D-Bus: `statusBar.tap` is a built-in event, so the generic
/// `Inject` takes it (no method of its own), called here by gdbus on `rehearse serve`.
@Suite(.serialized) struct ScrollToTopDBusTests {
    static let scene = """
        name: a list scrolled down
        scene:
          nodes:
            - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 3000], contentOffset: {x: 0, y: 1000}}
        steps: []
        """

    @Test func anInjectedStatusBarTapScrollsTheListToItsTopAndABadOneIsRefused() throws {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("list.yaml")
        try Data(Self.scene.utf8).write(to: file)
        try bus.serve(["--mode", "manual", "--scenario", file.path])
        let refused = try bus.gdbus("org.rehearse.Simulator1.Inject", ["statusBar.tap", "{'x': <1.0>}"])
        #expect(refused.errorOutput.contains("org.rehearse.Error.InvalidField"), "\(refused.errorOutput)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output == "(<1000.0>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["statusBar.tap", "{}"]).output == "(uint64 1,)\n")
        // 1000 · 0.99^(1000 t) under half a pixel (0.25) from t = 0.825 s: at rest on the frame of 50/60 s.
        let settled = try bus.gdbus("org.rehearse.Simulator1.Settle", ["10"]).output
        #expect(settled == "(0.83333333300000001,)\n", "\(settled)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["list.contentOffset.y"]).output == "(<0.0>,)\n")
    }
}
