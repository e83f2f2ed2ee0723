import RehearseCore
import Testing

@testable import RehearseLayout

private let line = "V:|-top-[title]-space-[username]-(8)-[separator(1)]-(8)-[password]"
private let ids = ["title", "username", "separator", "password"]

/// Moving metrics (``LayoutConstraint/metric``): what moves each keyboard change is an edit
/// variable suggested a value, not constraints removed and added again.
@Suite struct MovingMetricTests {
    @Test func aMovingMetricStaysANameInTheConstraints() throws {
        let constraints = try VisualFormatParser.parse(
            "V:|-top-[a(h)]-(8)-[b(>=h@750)]", metrics: ["h": 5], movingMetrics: ["top", "h"])
        #expect(
            constraints.map(\.description) == [
                "a.height == h", "a.top == superview.top + top", "b.height >= h @750.0", "b.top == a.bottom + 8.0",
            ])
        #expect(constraints.map(\.metric) == ["h", "top", "h", nil])
        #expect(constraints.map(\.constant) == [0, 0, 0, 8])
    }

    /// The login animator's two ways, side by side on two scenes: the line with fixed metrics in
    /// `hidden` and `shown`, swapped and rebuilt when the keyboard changes (as it was done), and
    /// the line in `base` with `top` and `space` moving, given by `hidden` and `shown`. Every frame
    /// is the same to the last bit after each change, over 200 keyboard-fitted metrics (whole and
    /// half points, as device keyboards and the fitting make them).
    @Test func movingMetricsLayOutAsRebuiltConstraintsToTheLastBit() throws {
        let fixed = try paperLoginScene()
        let moving = try paperLoginScene()
        let hidden = ["top": 120.0, "space": 100.0]
        let rebuilt = try LayoutEngine(
            target: fixed,
            sets: [
                ("base", try paperLoginBase()),
                ("hidden", try VisualFormatParser.parse(line, metrics: hidden)),
                ("shown", try VisualFormatParser.parse(line, metrics: ["top": 70, "space": 40])),
            ])
        let suggested = try LayoutEngine(
            target: moving,
            sets: [
                ("base", try paperLoginBase() + VisualFormatParser.parse(line, movingMetrics: ["top", "space"])),
                ("hidden", []), ("shown", []),
            ], metrics: ["hidden": hidden, "shown": ["top": 70, "space": 40]])
        func expectSameFrames(_ step: String) {
            for id in ids {
                let (a, b) = (fixed.scene[id]?.frame.vector, moving.scene[id]?.frame.vector)
                #expect(
                    a.map { $0 == b } == true,
                    "\(id) after \(step): \(String(describing: a)) rebuilt, \(String(describing: b)) moved")
            }
        }
        for engine in [rebuilt, suggested] { try engine.activate(["base", "hidden"]) }
        expectSameFrames("hidden")
        var random = SeededGenerator(seed: 40)
        for round in 0..<200 {
            let shown = ["top": Double(random.next() % 600) / 2, "space": Double(8 + random.next() % 200) / 2]
            try rebuilt.setConstraints(try VisualFormatParser.parse(line, metrics: shown), for: "shown")
            try suggested.setMetrics(shown, for: "shown")
            for engine in [rebuilt, suggested] { try engine.activate(["base", round.isMultiple(of: 3) ? "hidden" : "shown"]) }
            expectSameFrames("round \(round), \(shown)")
        }
    }

    @Test func metricsForAnUnknownSetOrMetricAreRefusedAndChangeNothing() throws {
        let simulation = try paperLoginScene()
        let sets: [(name: String, constraints: [LayoutConstraint])] = [
            ("base", try paperLoginBase() + VisualFormatParser.parse(line, movingMetrics: ["top", "space"])), ("shown", []),
        ]
        #expect(throws: LayoutError.unknownMetric("gap", known: ["space", "top"])) {
            try LayoutEngine(target: simulation, sets: sets, metrics: ["shown": ["gap": 1]])
        }
        #expect(throws: LayoutError.unknownSet("hidden", known: ["base", "shown"])) {
            try LayoutEngine(target: simulation, sets: sets, metrics: ["hidden": ["top": 1]])
        }
        let engine = try LayoutEngine(target: simulation, sets: sets, metrics: ["shown": ["top": 70, "space": 40]])
        try engine.activate(["base", "shown"])
        let before = ids.map { simulation.scene[$0]?.frame }
        #expect(throws: LayoutError.unknownMetric("gap", known: ["space", "top"])) {
            try engine.setMetrics(["top": 10, "gap": 1], for: "shown")
        }
        #expect(throws: LayoutError.unknownSet("hidden", known: ["base", "shown"])) {
            try engine.setMetrics(["top": 10], for: "hidden")
        }
        try engine.layOutAgain()
        #expect(ids.map { simulation.scene[$0]?.frame } == before)
        #expect(simulation.scene["title"]?.frame.minY == 70)
    }
}
