import Foundation
import Testing

@testable import RehearseCore

/// Node queries (`NodeQuery`) and the accessibility properties they read.
@Suite struct NodeQueryTests {
    /// A login screen: a title, two fields (the second secure, typed into), two buttons side by
    /// side in one row, and a button below them in a scroll view scrolled by 100.
    private func loginScreen() throws -> Simulation {
        let simulation = Simulation()
        try simulation.addNode("title", .label, Rect(x: 20, y: 40, width: 280, height: 30)) {
            $0.text = "Paper"
            $0.accessibilityTraits = [.staticText, .header]
        }
        try simulation.addNode("username", .textField, Rect(x: 20, y: 100, width: 280, height: 30)) {
            $0.accessibilityLabel = "Username"
        }
        try simulation.addNode("password", .textField, Rect(x: 20, y: 140, width: 280, height: 30)) {
            $0.accessibilityLabel = "Password"
            $0.secure = true
            $0.text = "Log in"
        }
        try simulation.addNode("cancel", .button, Rect(x: 180, y: 200, width: 100, height: 44)) { $0.text = "Cancel" }
        try simulation.addNode("login", .button, Rect(x: 20, y: 200, width: 100, height: 44)) { $0.text = "Log in" }
        try simulation.addNode("scroll", .scrollView, Rect(x: 0, y: 300, width: 320, height: 200)) {
            $0.contentSize = Size(width: 320, height: 600)
            $0.contentOffset = Point(x: 0, y: 100)
        }
        try simulation.addNode("help", .button, Rect(x: 20, y: 350, width: 100, height: 44), parent: "scroll") {
            $0.text = "Help"
        }
        return simulation
    }

    @Test func accessibilityStartsAsUIKitStartsEachKind() {
        let frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let elements = NodeKind.allCases.filter { Node(id: "n", kind: $0, frame: frame).isAccessibilityElement }
        #expect(elements == [.label, .textField, .button])
        #expect(Node(id: "n", kind: .label, frame: frame).accessibilityTraits == .staticText)
        #expect(Node(id: "n", kind: .button, frame: frame).accessibilityTraits == .button)
        #expect(Node(id: "n", kind: .imageView, frame: frame).accessibilityTraits == [])
        #expect(Node(id: "n", kind: .button, frame: frame).accessibilityLabel == nil)
    }

    @Test func accessibilityIsReadFromFieldsAsPathsAndBySet() throws {
        let (node, _) = try Node.read(fields: [
            "id": "photo", "kind": "imageView", "frame": [0, 0, 10, 10], "accessibilityLabel": "Photo",
            "accessibilityTraits": ["image", "selected"], "isAccessibilityElement": true,
        ])
        #expect(node.accessibilityLabel == "Photo")
        #expect(node.accessibilityTraits == [.image, .selected])
        #expect(node.isAccessibilityElement)
        let simulation = Simulation()
        try simulation.scene.add(node)
        #expect(try simulation.value(at: "photo.accessibilityTraits") == ["image", "selected"])
        #expect(try simulation.value(at: "photo.accessibilityLabel") == "Photo")
        try simulation.setValue(["header", "button"], at: "photo.accessibilityTraits")
        try simulation.setValue("Picture", at: "photo.accessibilityLabel")
        try simulation.setValue(false, at: "photo.isAccessibilityElement")
        // Written in UIKit's bit order, whatever order they were given in.
        #expect(try simulation.value(at: "photo.accessibilityTraits") == ["button", "header"])
        #expect(try simulation.value(at: "photo.accessibilityLabel") == "Picture")
        #expect(try simulation.value(at: "photo.isAccessibilityElement") == false)
        #expect(throws: PathError.self) { try simulation.setValue(["butten"], at: "photo.accessibilityTraits") }
        #expect(throws: PathError.self) { try simulation.setValue(["button", "button"], at: "photo.accessibilityTraits") }
        let long = String(repeating: "x", count: ScenarioLimits.textLength + 1)
        #expect(throws: PathError.self) { try simulation.setValue(.string(long), at: "photo.accessibilityLabel") }
        #expect(throws: FieldError.self) {
            try Node.read(fields: ["id": "a", "kind": "label", "frame": [0, 0, 1, 1], "accessibilityLabel": .string(long)])
        }
        #expect(try simulation.value(at: "photo.accessibilityLabel") == "Picture")
    }

    @Test func findsByTextLabelKindAndTraits() throws {
        let scene = try loginScreen().scene
        #expect(try NodeQuery.text("Paper").resolve(in: scene) == "title")
        #expect(try NodeQuery.label("Username").resolve(in: scene) == "username")
        #expect(try NodeQuery(traits: .header).resolve(in: scene) == "title")
        #expect(try NodeQuery(text: "Help", kind: .button).resolve(in: scene) == "help")
        #expect(try NodeQuery(id: "login", text: "Log in").resolve(in: scene) == "login")
        // Exact: no substring, case counts.
        #expect(throws: NodeQueryError.self) { try NodeQuery.text("Log").resolve(in: scene) }
        #expect(throws: NodeQueryError.self) { try NodeQuery.text("log in").resolve(in: scene) }
        // Every part must hold.
        #expect(throws: NodeQueryError.self) { try NodeQuery(text: "Paper", kind: .button).resolve(in: scene) }
    }

    /// Top to bottom, then left to right, by frames on screen: `login` (x 20) before `cancel`
    /// (x 180) in their row though added after it; `help` sits at 300 + 350 - 100 = 550 on screen.
    @Test func indexCountsInReadingOrder() throws {
        let scene = try loginScreen().scene
        let buttons = (0..<3).map { NodeQuery.kind(.button).at($0) }
        #expect(try buttons.map { try $0.resolve(in: scene) } == ["login", "cancel", "help"])
        let error = try #require(throws: NodeQueryError.self) { try NodeQuery.kind(.button).at(3).resolve(in: scene) }
        #expect(error.problem == .indexPastMatches(count: 3))
    }

    @Test func nodesAtTheSamePointKeepTheScenesOrder() throws {
        let simulation = Simulation()
        for id in ["b", "a", "c"] { try simulation.addNode(id, .button, Rect(x: 10, y: 10, width: 50, height: 20)) }
        let order = try (0..<3).map { try NodeQuery.kind(.button).at($0).resolve(in: simulation.scene) }
        #expect(order == ["b", "a", "c"])
    }

    @Test func severalMatchesWithoutAnIndexAreListed() throws {
        let scene = try loginScreen().scene
        let error = try #require(throws: NodeQueryError.self) { try NodeQuery.kind(.button).resolve(in: scene) }
        #expect(error.problem == .several(count: 3))
        #expect(error.nodes.map(\.id) == ["login", "cancel", "help"])
        #expect(
            error.description
                == "3 nodes match {kind: button}; give index: 0 to 2 (reading order: top to bottom, then left to right): "
                + "'login' (button, text \"Log in\", traits [button]) at [20, 200, 100, 44]; "
                + "'cancel' (button, text \"Cancel\", traits [button]) at [180, 200, 100, 44]; "
                + "'help' (button, text \"Help\", traits [button]) at [20, 550, 100, 44]")
    }

    @Test func aQueryMatchingNothingListsTheNearestWithWhereTheyAre() throws {
        let scene = try loginScreen().scene
        let error = try #require(throws: NodeQueryError.self) { try NodeQuery.text("Log In").resolve(in: scene) }
        #expect(error.problem == .noMatch)
        #expect(error.nodes.first?.id == "login")
        #expect(error.nodes.first?.frame == Rect(x: 20, y: 200, width: 100, height: 44))
        #expect(error.description.hasPrefix("no node matches {text: \"Log In\"}; nearest: 'login' (button, text \"Log in\""))
        let kind = try #require(throws: NodeQueryError.self) { try NodeQuery(text: "Paper", kind: .button).resolve(in: scene) }
        // One part missed ranks before two.
        #expect(kind.nodes.first?.id == "title")
    }

    /// The password field holds "Log in" too: it never matches, is never ranked by it, and its
    /// text appears in no message.
    @Test func aSecureFieldsTextNeverMatchesNorShows() throws {
        let scene = try loginScreen().scene
        #expect(try NodeQuery.text("Log in").resolve(in: scene) == "login")
        let error = try #require(throws: NodeQueryError.self) {
            try NodeQuery(text: "Log in", kind: .textField).resolve(in: scene)
        }
        #expect(error.problem == .noMatch)
        // Ranked by kind alone (the secure text counts as none), so its label-less neighbour first.
        #expect(error.nodes.first?.id == "login")
        let password = try #require(error.nodes.first { $0.id == "password" })
        #expect(password.description == "'password' (textField, secure, label \"Password\") at [20, 140, 280, 30]")
        #expect(!error.description.contains("Log in\", label \"Password"))
    }

    @Test func queriesAreReadFromFieldsWithEveryLimit() throws {
        let query = try NodeQuery(fields: ["text": "Log in", "kind": "button", "traits": ["button"], "index": 1])
        #expect(query == NodeQuery(text: "Log in", kind: .button, traits: .button, index: 1))
        #expect(try NodeQuery(fields: query.fields) == query)
        #expect(
            try NodeQuery(fields: ["index": .int(Int64(ScenarioLimits.queryIndex))].merging(["kind": "view"]) { $1 }).index
                == ScenarioLimits.queryIndex)
        let refusals: [(Fields, String)] = [
            ([:], "a node query needs at least one of id, text, label, kind, traits"),
            (["index": 0], "a node query needs at least one of id, text, label, kind, traits"),
            (
                ["kind": "view", "index": .int(Int64(ScenarioLimits.queryIndex + 1))],
                "field 'index' must be 0 to 9999 (ScenarioLimits.queryIndex), found 10000"
            ),
            (
                ["kind": "view", "index": .int(.max)],
                "field 'index' must be 0 to 9999 (ScenarioLimits.queryIndex), found 9223372036854775807"
            ),
            (["kind": "view", "index": -1], "field 'index' must be 0 to 9999 (ScenarioLimits.queryIndex), found -1"),
            (["text": ""], "field 'text' must not be empty"),
            (
                ["text": .string(String(repeating: "x", count: ScenarioLimits.textLength + 1))],
                "field 'text' must be at most 10000 Unicode scalars (ScenarioLimits.textLength), found 10001"
            ),
            (
                ["kind": "knob"],
                "field 'kind' must be one of view, label, textField, button, scrollView, imageView, shape, found 'knob'"
            ),
            (["txt": "Log in"], ""),
        ]
        for (fields, message) in refusals {
            let error = try #require(throws: FieldError.self) { try NodeQuery(fields: fields) }
            if !message.isEmpty { #expect(error.description == message) }
        }
    }

    /// Hostile sizes: a 10,000-character query against a full scene whose nodes each hold a
    /// 1,000-character text close to it, and the largest index. Ranking compares 20 scalars of
    /// each (`NodeQuery.comparedLength`), so it stays well within the bound.
    @Test func hostileQueriesCostBoundedTime() throws {
        let simulation = Simulation()
        let text = String(repeating: "ab", count: 500)
        for index in 1..<ScenarioLimits.nodes {
            try simulation.addNode("n\(index)", .label, Rect(x: 0, y: Double(index % 500), width: 10, height: 10)) {
                $0.text = text
            }
        }
        let query = NodeQuery(
            text: String(repeating: "ba", count: ScenarioLimits.textLength / 2), index: ScenarioLimits.queryIndex)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: NodeQueryError.self) { try query.resolve(in: simulation.scene) }
        let indexed = try #require(throws: NodeQueryError.self) {
            try NodeQuery(text: text, index: ScenarioLimits.queryIndex).resolve(in: simulation.scene)
        }
        let elapsed = clock.now - start
        #expect(error.nodes.count == NodeQuery.listedNodes)
        #expect(error.description.utf8.count < 2_000)
        #expect(indexed.problem == .indexPastMatches(count: ScenarioLimits.nodes - 1))
        #expect(indexed.nodes.count == NodeQuery.listedNodes)
        // Measured at about 0.55 s in a debug build (both calls); over ten times that.
        #expect(elapsed < .seconds(6), "took \(elapsed)")
    }
}
