import Testing

@testable import RehearseCore

/// ``Simulation/visibility(of:)``: each criterion that hides a node, with the reason it gives, and
/// the visible part of one partly clipped or covered.
@Suite struct VisibilityTests {
    /// A form (a plain view) holding a field, and a 320 × 300 list (y 100 to 400) over 2,000
    /// points of rows.
    static func simulation() throws -> Simulation {
        let simulation = Simulation()
        try simulation.addNode("form", .view, Rect(x: 0, y: 0, width: 320, height: 100))
        try simulation.addNode("login", .button, Rect(x: 20, y: 20, width: 100, height: 40), parent: "form")
        try simulation.addNode("list", .scrollView, Rect(x: 0, y: 100, width: 320, height: 300)) {
            $0.contentSize = Size(width: 320, height: 2000)
        }
        for row in 0..<40 {
            try simulation.addNode("row\(row)", .view, Rect(x: 0, y: Double(row) * 50, width: 320, height: 50), parent: "list")
        }
        try simulation.addNode("password", .textField, Rect(x: 20, y: 500, width: 280, height: 30))
        return simulation
    }

    @Test func aNodeOnScreenIsVisibleWhole() throws {
        let visibility = try Self.simulation().visibility(of: "login")
        #expect(visibility.isVisible && visibility.isFullyVisible)
        #expect(visibility.visibleRect == Rect(x: 20, y: 20, width: 100, height: 40))
        #expect(visibility.visibleFraction == 1)
    }

    @Test func hiddenItselfOrByAnAncestor() throws {
        let simulation = try Self.simulation()
        try simulation.scene.update("login") { $0.hidden = true }
        #expect(simulation.visibility(of: "login").problem == .hidden(by: nil))
        #expect("\(simulation.visibility(of: "login").problem!)" == "hidden")
        try simulation.scene.update("login") { $0.hidden = false }
        try simulation.scene.update("form") { $0.hidden = true }
        #expect(simulation.visibility(of: "login").problem == .hidden(by: "form"))
        #expect("\(simulation.visibility(of: "login").problem!)" == "hidden by its ancestor form")
    }

    @Test func alphaCountsWithTheAncestors() throws {
        let simulation = try Self.simulation()
        try simulation.scene.update("form") { $0.alpha = 0.1 }
        try simulation.scene.update("login") { $0.alpha = 0.05 }
        // 0.1 × 0.05 = 0.005: not above 0.01, though each alone is.
        let problem = try #require(simulation.visibility(of: "login").problem)
        guard case .transparent(let alpha, let lowest) = problem else {
            Issue.record("\(problem)")
            return
        }
        #expect(abs(alpha - 0.005) < 1e-12 && lowest == nil)
        try simulation.scene.update("login") { $0.alpha = 0.2 }
        #expect(simulation.visibility(of: "login").isVisible)
    }

    @Test func aNodeAnimatingOutIsJudgedOnItsPresentation() throws {
        let simulation = try Self.simulation()
        try simulation.animator.animate(AnimationParameters(duration: 1, curve: .linear), owner: "test") {
            try simulation.animator.set(Rect(x: 20, y: -200, width: 100, height: 40).vector, for: .frame, of: "login")
        }
        #expect(simulation.visibility(of: "login").isFullyVisible)  // still where it was on screen
        simulation.advance(seconds: 1)
        #expect("\(simulation.visibility(of: "login").problem!)" == "off screen (its frame ends 160 pt above the screen)")
    }

    @Test func offScreenSaysWhichWayAndHowFar() throws {
        let simulation = try Self.simulation()
        try simulation.scene.update("login") { $0.frame = Rect(x: 400, y: 20, width: 100, height: 40) }
        #expect(simulation.visibility(of: "login").problem == .offScreen(.right(80)))
        #expect("\(simulation.visibility(of: "login").problem!)" == "off screen (its frame starts 80 pt right of the screen)")
    }

    @Test func aScrollViewClipsItsRowsAndAPlainViewDoesNot() throws {
        let simulation = try Self.simulation()
        // row 10 is at 500 in the content, 600 on screen: 200 below the list's bottom (400) at offset 0.
        #expect(simulation.visibility(of: "row10").problem == .clipped(by: "list", .below(200)))
        #expect(
            "\(simulation.visibility(of: "row10").problem!)"
                == "clipped away by list (its frame starts 200 pt below list's visible bounds)")
        // The form is 100 tall; a child reaching below it is still drawn (a plain view does not clip).
        try simulation.scene.update("login") { $0.frame = Rect(x: 20, y: 80, width: 100, height: 40) }
        #expect(simulation.visibility(of: "login").isFullyVisible)
        // Scrolled so row 10 shows its top 20 points: visible, partly.
        try simulation.scene.update("list") { $0.contentOffset = Point(x: 0, y: 220) }
        let row = simulation.visibility(of: "row10")
        #expect(row.isVisible && !row.isFullyVisible)
        #expect(row.visibleRect == Rect(x: 0, y: 380, width: 320, height: 20))
        #expect(row.visibleFraction == 0.4)
    }

    @Test func lessThanAPointLeftIsNotVisible() throws {
        let simulation = try Self.simulation()
        try simulation.scene.update("list") { $0.contentOffset = Point(x: 0, y: 200.5) }
        // row 10's top half point inside the list's bounds.
        #expect(simulation.visibility(of: "row10").problem == .clipped(by: "list", .sliver(Size(width: 320, height: 0.5))))
    }

    @Test func theKeyboardCoversWhatIsBehindIt() throws {
        let simulation = try Self.simulation()
        try simulation.inject(.focus(NodeTarget(target: "password")))
        #expect(simulation.visibility(of: "password").isVisible)  // the keyboard is still below the screen
        simulation.advance(seconds: 1)
        // iPhone 5: the keyboard is 216 tall, its top at 352; the field (500 to 530) is behind it.
        #expect(simulation.visibility(of: "password").problem == .coveredByKeyboard)
        #expect("\(simulation.visibility(of: "password").problem!)" == "covered by the keyboard")
        // The list (100 to 400) keeps what is above the keyboard.
        #expect(simulation.visibility(of: "list").visibleRect == Rect(x: 0, y: 100, width: 320, height: 252))
    }

    @Test func aNodeTheSceneDoesNotHaveIsNotVisible() throws {
        #expect(try Self.simulation().visibility(of: "nothing").problem == .notInScene)
    }
}
