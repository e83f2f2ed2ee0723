import RehearseCore
import Testing

@testable import RehearseLayout

/// Layout guides: `safeArea` in equations and iOS 7's `topLayoutGuide` and `bottomLayoutGuide` in
/// VFL follow the superview's safe area through rotation and the status bar; `|` does not, as on iOS.
@Suite struct SafeAreaGuideTests {
    private func layOut(_ lines: [String], on device: Device, nodes: [(node: Node, parent: String?)]) throws -> (
        Simulation, LayoutEngine
    ) {
        let simulation = Simulation(device: device)
        for (node, parent) in nodes { try simulation.scene.add(node, to: parent) }
        let constraints = try lines.flatMap { line throws -> [LayoutConstraint] in
            line.hasPrefix("H:") || line.hasPrefix("V:")
                ? try VisualFormatParser.parse(line) : [try SingleConstraintParser.parse(line)]
        }
        let engine = try LayoutEngine(target: simulation, sets: [("guides", constraints)])
        simulation.layout = engine
        try engine.activate(["guides"])
        return (simulation, engine)
    }

    private func box(_ id: String, parent: String? = nil, frame: Rect = .zero) -> (node: Node, parent: String?) {
        (Node(id: id, kind: .view, frame: frame), parent)
    }

    /// iPhone X (DevicePresets.swift): 44 at the top and 34 at the bottom in portrait; 44 on each
    /// side and 21 at the bottom in landscape, with no status bar.
    @Test func guidesFollowTheSafeAreaThroughRotation() throws {
        let (simulation, _) = try layOut(
            [
                "V:[topLayoutGuide]-[a(10)]", "V:[b(10)]-(0)-[bottomLayoutGuide]", "a.left == safeArea.left",
                "a.right == safeArea.right",
                "H:|[b]|",
            ],
            on: .iPhoneX, nodes: [box("a"), box("b")])
        let scene = simulation.scene
        #expect(scene["a"]?.frame == Rect(x: 0, y: 52, width: 375, height: 10), "standard spacing of 8 below the guide")
        #expect(scene["b"]?.frame == Rect(x: 0, y: 812 - 34 - 10, width: 375, height: 10), "| stays the superview's edge")
        try simulation.inject(.orientation(OrientationChange(value: .landscapeLeft)))
        #expect(scene["a"]?.frame == Rect(x: 44, y: 8, width: 724, height: 10))
        #expect(scene["b"]?.frame == Rect(x: 0, y: 375 - 21 - 10, width: 812, height: 10))
    }

    /// Hiding the status bar lays out again: on an iPhone 8 the top guide moves from 20 to 0.
    @Test func hidingTheStatusBarMovesTheTopGuide() throws {
        let (simulation, _) = try layOut(
            ["V:[topLayoutGuide]-(0)-[a(10)]"], on: .iPhone8, nodes: [box("a", frame: Rect(x: 0, y: 0, width: 50, height: 0))])
        #expect(simulation.scene["a"]?.frame.minY == 20)
        try simulation.setValue(.bool(true), at: "statusBar.hidden")
        #expect(simulation.scene["a"]?.frame.minY == 0)
    }

    /// A container 30 below the top of an iPhone X has 14 of the 44-point inset in its coordinates;
    /// the guide's centre and size use all four insets.
    @Test func aContainersGuideIsTheCoveredPartOfItsOwnFrame() throws {
        let (simulation, _) = try layOut(
            [
                "c.top == safeArea.top", "c.bottom == safeArea.bottom", "c.centerX == safeArea.centerX",
                "c.width == safeArea.width * 0.5",
            ],
            on: .iPhoneX,
            nodes: [box("panel", frame: Rect(x: 0, y: 30, width: 375, height: 782)), box("c", parent: "panel")])
        #expect(simulation.scene["c"]?.frame == Rect(x: 93.75, y: 14, width: 187.5, height: 782 - 14 - 34))
    }

    @Test func aGuideIsNotANodeId() throws {
        let scene = Scene(device: .iPhone5)
        for id in LayoutGuide.allCases.map(\.rawValue) {
            #expect(throws: SceneError.reservedID(id)) { try scene.add(Node(id: id, kind: .view, frame: .zero)) }
        }
    }
}
