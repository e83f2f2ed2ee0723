import Foundation
import IntegrationTestSupport
import Testing

/// The live viewer in a real headless Chromium (Debian's, driven by Selenium and chromedriver):
/// `viewer_browser.py` clicks, types and drags on the page and reads what it drew. Screenshots go to
/// `.build/test-output/viewer/`.
@Suite(.serialized) struct ViewerBrowserTests {
    static let outputFolder = Rehearse.packageRoot.appendingPathComponent(".build/test-output/viewer")

    private func browse(_ scenario: String, bus: PrivateBus? = nil) throws -> CommandResult {
        try FileManager.default.createDirectory(at: Self.outputFolder, withIntermediateDirectories: true)
        let arguments = [
            Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/viewer_browser.py").path,
            Rehearse.productsFolder.appendingPathComponent("rehearse").path, Self.outputFolder.path, scenario,
        ]
        if let bus { return try bus.run("/usr/bin/env", ["python3"] + arguments) }
        return try Rehearse.python(arguments)
    }

    /// Click the username field: the keyboard rises and the title moves to 70 (the original's shown
    /// metrics) in the page's drawing; typing reaches the field; a password never reaches the page
    /// in clear; the run's timeline scrubs back to the start. The page's script is its own file
    /// under a content policy without inline script, and no frame came before the page's hello.
    /// axe-core (issue 41) finds no accessibility violation of any impact on the page.
    @Test func clickTypeAndScrubThePaperLogin() throws {
        let result = try browse("login")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("moved the title to y 70"))
        #expect(result.output.contains("none of"))
        #expect(result.output.contains("no inline script, and the content policy blocked nothing"))
        #expect(result.output.contains("ok: axe-core finds no violation on the page"))
        #expect(FileManager.default.fileExists(atPath: Self.outputFolder.appendingPathComponent("viewer-login.png").path))
    }

    @Test func aTiltOnThePadPansThePhoto() throws {
        let result = try browse("panner")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("panned the photo"))
    }

    /// A mouse drag on the page is a finger on the simulated screen (issue 26): a slow drag held
    /// before letting go scrolls a list and leaves it there; a flick flings it on after the button
    /// is up; two touch pointers (a phone's fingers, as WebDriver's touch actions make them)
    /// moving up together are two fingers that drag the list by their centroid (a scroll view
    /// has no pinch). The page draws the finger while it is down.
    @Test func aMouseDragScrollsAndFlingsAList() throws {
        let result = try browse("scroll")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("and it stayed"))
        #expect(result.output.contains("flung the list"))
        #expect(result.output.contains("and nothing pinched"))
    }

    /// Two touch pointers parting on a scroll view that can zoom are a pinch (issue 39): the page
    /// draws its image zoomed, and its pan never dragged.
    @Test func twoPointersPartingZoomAPhoto() throws {
        let result = try browse("zoom")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("zoomed the photo"))
    }

    /// One simulation for D-Bus and the page: a gdbus Inject shows on the page, a click on the page
    /// is an Event signal on the bus.
    @Test func aDBusInjectShowsOnThePageAndAPageTapOnTheBus() throws {
        let bus = try PrivateBus()
        let result = try browse("dbus", bus: bus)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("showed on the page"))
        #expect(result.output.contains("reached D-Bus as an Event signal"))
    }

    /// Another site's page, rebound host names (`127.evil.example` among them), bad, unmasked and
    /// oversized commands, more pages than the limit, and a tap and a scrub on a read-only viewer.
    @Test func hostilePagesAreRefusedAndTheViewerKeepsServing() throws {
        let result = try browse("hostile")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == 6, "\(result.output)")
    }
}
