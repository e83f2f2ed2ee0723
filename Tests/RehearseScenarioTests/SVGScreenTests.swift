import RehearseCore
import RehearseScenario
import Testing

/// The drawn status bar is the device's for the orientation (DevicePresets.swift), and none while
/// it is hidden or the device hides it (an iPhone in landscape).
@Suite struct SVGScreenTests {
    private func statusBarRects(_ simulation: Simulation) -> [Substring] {
        SVGRenderer.document(SceneSnapshot(simulation)).split(separator: "\n").filter { $0.contains(#"opacity="0.8""#) }
    }

    @Test func theStatusBarIsDrawnAsTheDeviceHasIt() throws {
        let notched = Simulation(device: .iPhoneX)
        #expect(statusBarRects(notched).map { $0.contains(#"height="44""#) } == [true])
        try notched.inject(.orientation(OrientationChange(value: .landscapeLeft)))
        #expect(statusBarRects(notched).isEmpty)
        let pad = Simulation(device: .iPad)
        try pad.inject(.orientation(OrientationChange(value: .landscapeLeft)))
        #expect(statusBarRects(pad).map { $0.contains(#"width="1024" height="20""#) } == [true])
        pad.scene.statusBarHidden = true
        #expect(statusBarRects(pad).isEmpty)
    }
}
