import Foundation
import IntegrationTestSupport
import Testing

/// Zooming on `rehearse serve`, on a private bus, driven by gdbus (a peer nobody here wrote): a
/// `Gesture` pinch on a scroll view that can zoom zooms it about the pinch's centre, as the
/// scenario step does (`Scenarios/touch/zoom-pinch.yaml` works out the numbers), and an injected
/// zoom event with a scale out of `ScenarioLimits.zoomScale` or a view the scene lacks is refused
/// by name, changing nothing.
@Suite(.serialized) struct ZoomDBusTests {
    @Test func gdbusPinchesAScrollViewToZoomAndBadZoomEventsAreRefused() throws {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("photo.yaml")
        try Data(
            """
            name: a photo that zooms
            scene:
              nodes:
                - {id: photo, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 568], maximumZoomScale: 4, viewForZooming: image}
                - {id: image, kind: imageView, parent: photo, frame: [0, 0, 320, 568]}
            steps: []
            """.utf8
        ).write(to: file)
        try bus.serve(["--mode", "manual", "--scenario", file.path])
        // Two fingers across (160, 284) part to twice their distance over 0.5 s: scale 2, the
        // image's point (160, 284) kept under them, offset (2 × 160 - 160, 2 × 284 - 284).
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Gesture", ["pinch", "{'on': <'photo'>, 'scale': <2.0>}"]).output == "(0.5,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["photo.zoomScale"]).output == "(<2.0>,)\n")
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.Get", ["photo.contentOffset"]).output == "(<{'x': <160.0>, 'y': <284.0>}>,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["image.frame.height"]).output == "(<1136.0>,)\n")
        let count = try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output
        let refusals: [(String, String, String)] = [
            (
                "{'target': <'photo'>, 'view': <'image'>, 'zoomScale': <0.0>}", "InvalidField",
                "field 'zoomScale' must be from 0.001 to 1000 (ScenarioLimits.zoomScale), found 0"
            ),
            (
                "{'target': <'photo'>, 'view': <'image'>, 'zoomScale': <1e308>}", "InvalidField",
                "(ScenarioLimits.zoomScale), found 1e+308"
            ),
            (
                "{'target': <'photo'>, 'view': <'nope'>, 'zoomScale': <2.0>}", "InvalidField",
                "field 'view': no node with id 'nope'"
            ),
        ]
        for (fields, error, message) in refusals {
            let refused = try bus.gdbus("org.rehearse.Simulator1.Inject", ["scroll.didZoom", fields])
            #expect(
                refused.errorOutput.contains("org.rehearse.Error.\(error)") && refused.errorOutput.contains(message),
                "\(fields): \(refused.errorOutput)")
        }
        #expect(try bus.gdbus("org.freedesktop.DBus.Properties.Get", ["org.rehearse.Simulator1", "EventCount"]).output == count)
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["photo.zoomScale"]).output == "(<2.0>,)\n")
    }
}
