import RehearseCore
import Testing

@testable import RehearseLayout

/// The Paper login screen of the original (vijaysharm, "Facebook's Paper Login"): a title label, two fields and a separator.
func paperLoginScene() throws -> Simulation {
    let simulation = Simulation()
    var title = Node(id: "title", kind: .label, frame: .zero)
    title.text = "Paper"
    try simulation.scene.add(title)
    for (id, kind) in [("username", NodeKind.textField), ("separator", .view), ("password", .textField)] {
        try simulation.scene.add(Node(id: id, kind: kind, frame: .zero))
    }
    return simulation
}

/// The original's horizontal constraints: the title centred, the fields and separator stretched to the standard margins.
func paperLoginBase() throws -> [LayoutConstraint] {
    try ["H:|-[username]-|", "H:|-[separator]-|", "H:|-[password]-|"].flatMap { try VisualFormatParser.parse($0) }
        + [SingleConstraintParser.parse("title.centerX == superview.centerX")]
}

/// The Paper login with its base and two vertical sets.
private func paperLogin() throws -> (Simulation, LayoutEngine) {
    let simulation = try paperLoginScene()
    let format = "V:|-top-[title]-space-[username]-(8)-[separator(1)]-(8)-[password]"
    let engine = try LayoutEngine(
        target: simulation,
        sets: [
            ("base", try paperLoginBase()),
            ("hidden", try VisualFormatParser.parse(format, metrics: ["top": 120, "space": 100])),
            ("shown", try VisualFormatParser.parse(format, metrics: ["top": 70, "space": 40])),
        ])
    simulation.layout = engine
    return (simulation, engine)
}

@Suite struct LayoutEngineTests {
    /// Keyboard hidden: top 120, space 100; the label is 21 high (IntrinsicSize), the fields 30;
    /// username, separator and password stacked with 8, 1 and 8 points; 20-point margins.
    /// Auto Layout: a constraint of any priority holds where nothing contradicts it, so the stays
    /// that keep a view's frame must be weaker than priority 1, and than a sum of them.
    @Test func priorityOneMovesAViewThatOnlyItsStaysHold() throws {
        let simulation = Simulation()
        try simulation.scene.add(Node(id: "a", kind: .view, frame: Rect(x: 10, y: 10, width: 40, height: 40)))
        let engine = try LayoutEngine(
            target: simulation,
            sets: [
                ("one", try VisualFormatParser.parse("H:[a(100@1)]")),
                ("sum", try VisualFormatParser.parse("H:|-(30@1)-[a(60@1)]") + VisualFormatParser.parse("V:|-(5@2)-[a]")),
            ])
        try engine.activate(["one"])
        #expect(simulation.scene["a"]?.frame == Rect(x: 10, y: 10, width: 100, height: 40), "width 100, the rest kept")
        try engine.activate(["sum"])
        #expect(simulation.scene["a"]?.frame == Rect(x: 30, y: 5, width: 60, height: 40))
    }

    @Test func theSeedsHiddenSetGivesTheOriginalFrames() throws {
        let (simulation, engine) = try paperLogin()
        try engine.activate(["base", "hidden"])
        let scene = simulation.scene
        #expect(scene["title"]?.frame == Rect(x: 137.5, y: 120, width: 45, height: 21))
        #expect(scene["username"]?.frame == Rect(x: 20, y: 241, width: 280, height: 30))
        #expect(scene["separator"]?.frame == Rect(x: 20, y: 279, width: 280, height: 1))
        #expect(scene["password"]?.frame == Rect(x: 20, y: 288, width: 280, height: 30))
        #expect(engine.activeConstraintSets == ["base", "hidden"])
    }

    /// Keyboard shown: top 70, space 40, animated when swapped inside a transaction.
    @Test func swappingSetsInsideAnAnimationAnimatesTheFrames() throws {
        let (simulation, engine) = try paperLogin()
        try engine.activate(["base", "hidden"])
        try simulation.animator.animate(AnimationParameters(duration: 0.3, curve: .linear), owner: "test") {
            try engine.activate(["base", "shown"])
        }
        #expect(simulation.scene["title"]?.frame.minY == 70)
        #expect(simulation.scene["username"]?.frame.minY == 131)
        #expect(simulation.animator.presentationValue(of: .frame, of: "title")?[1] == 120)
        simulation.advance(by: VirtualTime.seconds(0.15)!)
        #expect(abs((simulation.animator.presentationValue(of: .frame, of: "title")?[1] ?? 0) - 95) < 1e-4)
        simulation.advance(by: VirtualTime.seconds(0.15)!)
        #expect(simulation.animator.presentationValue(of: .frame, of: "password")?[1] == 178)
    }

    @Test func rotationLaysOutAgainForTheNewWidth() throws {
        let (simulation, engine) = try paperLogin()
        try engine.activate(["base", "hidden"])
        try simulation.inject(.orientation(OrientationChange(value: .landscapeLeft)))
        #expect(simulation.scene["username"]?.frame == Rect(x: 20, y: 241, width: 528, height: 30))
        #expect(simulation.scene["title"]?.frame.minX == 261.5)
    }

    @Test func deactivatingASetRestoresThePreviousLayout() throws {
        let (simulation, engine) = try paperLogin()
        try engine.activate(["base"])
        let before = simulation.scene["username"]?.frame
        try engine.activate(["base", "shown"])
        try engine.activate(["base"])
        #expect(simulation.scene["username"]?.frame == before)
    }

    @Test func contradictorySetsAreRefusedAndLeaveTheLayoutAsItWas() throws {
        let simulation = Simulation()
        try simulation.scene.add(Node(id: "box", kind: .view, frame: .zero))
        let engine = try LayoutEngine(
            target: simulation,
            sets: [
                ("wide", [try SingleConstraintParser.parse("box.width == 200")]),
                ("narrow", [try SingleConstraintParser.parse("box.width == 100")]),
            ])
        try engine.activate(["wide"])
        #expect(throws: LayoutError.unsatisfiable(constraint: "box.width == 100")) { try engine.activate(["wide", "narrow"]) }
        #expect(engine.activeConstraintSets == ["wide"])
        #expect(simulation.scene["box"]?.frame.size.width == 200)
        try engine.activate(["narrow"])
        #expect(simulation.scene["box"]?.frame.size.width == 100)
        #expect(throws: LayoutError.unknownSet("tall", known: ["wide", "narrow"])) { try engine.activate(["tall"]) }
    }

    @Test func unknownViewsAndDifferentSuperviewsAreRefused() throws {
        let simulation = Simulation()
        try simulation.scene.add(Node(id: "outer", kind: .view, frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try simulation.scene.add(Node(id: "inner", kind: .view, frame: .zero), to: "outer")
        try simulation.scene.add(Node(id: "other", kind: .view, frame: .zero))
        #expect(throws: LayoutError.unknownView("ghost", constraint: "H:|-[ghost]-|")) {
            try LayoutEngine(target: simulation, sets: [("a", try VisualFormatParser.parse("H:|-[ghost]-|"))])
        }
        #expect(throws: LayoutError.self) {
            try LayoutEngine(target: simulation, sets: [("a", [try SingleConstraintParser.parse("inner.left == other.left")])])
        }
    }

    /// A nested container that is not laid out keeps its size; its children fill it.
    @Test func childrenOfAHeldContainerUseItsSize() throws {
        let simulation = Simulation()
        try simulation.scene.add(Node(id: "panel", kind: .view, frame: Rect(x: 10, y: 10, width: 200, height: 100)))
        try simulation.scene.add(Node(id: "fill", kind: .view, frame: .zero), to: "panel")
        let engine = try LayoutEngine(
            target: simulation,
            sets: [
                ("fill", try VisualFormatParser.parse("H:|[fill]|") + VisualFormatParser.parse("V:|-(10)-[fill]-(10)-|"))
            ])
        try engine.activate(["fill"])
        #expect(simulation.scene["fill"]?.frame == Rect(x: 0, y: 10, width: 200, height: 80))
    }
}
