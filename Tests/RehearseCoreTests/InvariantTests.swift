import Testing

@testable import RehearseCore

/// Invariants: the condition form, the paths it reads, and when `invariant.failed` is published.
struct InvariantTests {
    @Test func conditionsReadTheFixedForm() throws {
        let forms: [(String, String)] = [
            ("gateway.children.count == 1", "gateway.children.count == 1"),
            ("scroll.presentation.contentOffset.x>=0", "scroll.presentation.contentOffset.x >= 0"),
            ("username.frame.maxY <= keyboard.frame.y", "username.frame.maxY <= keyboard.frame.y"),
            ("orientation != 'portrait'", "orientation != \"portrait\""),
            ("keyboard.visible == true", "keyboard.visible == true"),
            ("a.frame.x < -2.5", "a.frame.x < -2.5"),
        ]
        for (text, canonical) in forms {
            #expect(try Condition(parsing: text).description == canonical, "\(text)")
        }
        #expect(try Condition(parsing: "a.frame.x > b.frame.x").operandPath == ValuePath("b.frame.x"))
    }

    @Test func aMalformedConditionSaysWhereAndWhat() {
        let cases: [(String, Int, String)] = [
            ("== 1", 0, "PATH OP VALUE"),
            ("a.frame.x = 1", 10, "expected one of"),
            ("a.frame.x ==", 12, "expected a number"),
            ("orientation < \"portrait\"", 14, "compares numbers"),
            ("a.text == \"open", 10, "matching quotes"),
            ("a.frame.x == 1 + 2", 13, "is not a number"),
        ]
        for (text, offset, message) in cases {
            #expect {
                try Condition(parsing: text)
            } throws: { error in
                guard let error = error as? ConditionSyntaxError else { return false }
                return error.offset == offset && error.message.contains(message)
            }
        }
    }

    @Test func pathsCountListsAndReadFrameEdges() throws {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 10, y: 20, width: 30, height: 40))
        try simulation.addNode("inner", .view, Rect(x: 0, y: 0, width: 1, height: 1), parent: "box")
        #expect(try simulation.value(at: "box.frame.maxX") == .double(40))
        #expect(try simulation.value(at: "box.frame.maxY") == .double(60))
        #expect(try simulation.value(at: "box.children.count") == .int(1))
        #expect(try simulation.value(at: "children.count") == .int(1))
        #expect(try simulation.value(at: "keyboard.frame.maxY") == .double(simulation.keyboard.frame.maxY))
        #expect(throws: PathError.self) { try simulation.value(at: "box.alpha.count") }
        #expect(throws: PathError.self) { try simulation.value(at: "box.contentOffset.maxX") }
    }

    /// A path of many `.count`s is read at most twice (as it names nothing, then without its last
    /// name), not once a `.count`: 64 KiB of them, the longest string D-Bus `Get` takes, overflowed
    /// the stack of `rehearse serve` and of `validate` (an `expect:` or a plugin's `reads:` path).
    @Test func aPathOfManyCountsIsRefusedWithoutReadingItOnceACount() throws {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        let path = "box" + String(repeating: ".count", count: 10_900)
        #expect(path.utf8.count <= 64 * 1024)
        #expect(throws: PathError.self) { try simulation.value(at: path) }
        #expect(throws: PathError.self) { try simulation.value(at: "box.children.count.count") }
        #expect(try simulation.value(at: "box.children.count") == .int(0))
    }

    /// A broken invariant is published once, with both sides; again only after it held in between.
    @Test func aBrokenInvariantIsReportedOncePerBreak() throws {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        simulation.addInvariant(
            Invariant(name: "box on screen", .check(try Condition(parsing: "box.frame.x >= 0"))),
            owner: "scenario")
        let log = simulation.record()
        try simulation.scene.update("box") { $0.frame.origin.x = -5 }
        try simulation.inject(.network(NetworkChange(online: false)))
        try simulation.inject(.network(NetworkChange(online: true)))
        let failures = log.events.compactMap { EventKind.invariantFailed.payload($0.event) }
        #expect(
            failures == [
                InvariantFailure(name: "box on screen", owner: "scenario", actual: "box.frame.x = -5.0", expected: ">= 0")
            ])
        try simulation.scene.update("box") { $0.frame.origin.x = 0 }
        try simulation.inject(.network(NetworkChange(online: false)))
        try simulation.scene.update("box") { $0.frame.origin.x = -1 }
        try simulation.inject(.network(NetworkChange(online: true)))
        #expect(log.names.filter { $0 == "invariant.failed" }.count == 2)
    }

    /// What one timeline item does is checked once it is done: a state it passes through on the
    /// way (two children for a moment) is not a failure.
    @Test func aTimelineItemIsCheckedWhenItIsDone() throws {
        let simulation = Simulation()
        try simulation.addNode("login", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        simulation.addInvariant(
            Invariant(name: "one child", .check(try Condition(parsing: "children.count == 1"))),
            owner: "scenario")
        let log = simulation.record()
        simulation.timeline.schedule(at: .zero, owner: "swap") {
            try simulation.scene.add(Node(id: "home", kind: .view, frame: .zero), to: nil)
            simulation.bus.publish(.network(NetworkChange(online: true)), source: "swap")
            try simulation.scene.remove("login")
        }
        simulation.advance(seconds: 0.1)
        #expect(log.names == ["network"])
        simulation.timeline.schedule(at: simulation.now, owner: "add") {
            try simulation.scene.add(Node(id: "extra", kind: .view, frame: .zero), to: nil)
        }
        simulation.advance(seconds: 0.1)
        #expect(log.names == ["network", "invariant.failed"])
    }

    @Test func guardsFiniteRulesAndAbsentNodes() throws {
        let simulation = Simulation()
        try simulation.addNode("scroll", .scrollView, Rect(x: 0, y: 0, width: 10, height: 10))
        simulation.addInvariant(Invariant(name: "finite", .finite([ValuePath("scroll.contentOffset")])), owner: "scenario")
        simulation.addInvariant(
            Invariant(
                name: "guarded", when: try Condition(parsing: "keyboard.visible == true"),
                .check(try Condition(parsing: "scroll.frame.x == 99"))), owner: "scenario")
        simulation.addInvariant(Invariant(name: "absent", .check(try Condition(parsing: "gone.frame.x == 1"))), owner: "scenario")
        let log = simulation.record()
        try simulation.inject(.network(NetworkChange(online: true)))
        #expect(!log.names.contains("invariant.failed"), "the guard is false and 'gone' is not in the scene")
        try simulation.scene.update("scroll") { $0.contentOffset.y = .nan }
        simulation.keyboard.show()
        let failed = log.events.compactMap { EventKind.invariantFailed.payload($0.event) }.map(\.name)
        #expect(failed == ["finite", "guarded"])
    }
}
