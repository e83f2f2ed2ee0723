import RehearseCore
import RehearseTesting
import Testing

/// On return in a field, focuses the field with the next tag (or ends editing) and emits `form.next`;
/// when the keyboard shows, lifts the `panel` by the keyboard's height over 0.3 s.
private final class FormNavigator: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var liftDuration = 0.3
    }

    /// After a return: the field it was pressed in, and the one focused next (none at the end).
    struct Next: PluginEvent, Codable {
        static let name = "form.next"
        static let fieldSummary = "from, to?"
        static let summary = "after a return"
        var from: String
        var to: String?
    }

    static let id = "form-navigator"
    static let summary = "moves focus to the next field"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [Next.self]

    init(configuration: Configuration, context: PluginContext) throws {
        context.on(.returnKey) { request in
            guard let tag = context.scene[request.target]?.tag else { return }
            let next = context.scene.allIDs.first {
                context.scene[$0]?.kind.isTextInput == true && context.scene[$0]?.tag == tag + 1
            }
            try context.emit(next.map { .focus(NodeTarget(target: $0)) } ?? .resign(ResignRequest()))
            try context.emit(Next(from: request.target, to: next))
        }
        context.on(.keyboardWillShow) { change in
            guard let panel = context.scene["panel"] else { return }
            var frame = panel.frame
            frame.origin.y = context.scene.bounds.size.height - change.frame.size.height - frame.size.height
            try context.animate(AnimationParameters(duration: configuration.liftDuration, curve: .linear)) {
                try context.set(frame.vector, for: .frame, of: "panel")
            }
        }
    }
}

private func form(_ scene: Scene) throws {
    try scene.add(Node(id: "panel", kind: .view, frame: Rect(x: 0, y: 468, width: 320, height: 100)))
    for tag in 1...2 {
        var field = Node(id: "field\(tag)", kind: .textField, frame: Rect(x: 20, y: Double(tag) * 30, width: 280, height: 20))
        field.tag = tag
        try scene.add(field, to: "panel")
    }
}

@Suite struct HarnessTests {
    @Test func sendAdvanceAndReceiveInOrder() throws {
        let harness = try PluginHarness(FormNavigator.self, scene: form)
        harness.send(.focus(NodeTarget(target: "field1")))
        harness.send(.returnKey(NodeTarget(target: "field1")))
        harness.receive("focus", ["target": "field2"])
        harness.receive(FormNavigator.Next(from: "field1", to: "field2"))
        harness.send(.returnKey(NodeTarget(target: "field2")))
        harness.receive("resign")
        harness.receive("form.next", ["from": "field2"])
        #expect(harness.value("firstResponder") == nil)
    }

    @Test func presentationValuesFollowTheVirtualClock() throws {
        let harness = try PluginHarness(FormNavigator.self, configuration: .init(liftDuration: 1), scene: form)
        harness.send(.focus(NodeTarget(target: "field1")))
        // 568 - 216 (iPhone 5 keyboard) - 100 = 252; linear over 1 s from 468.
        #expect(harness.number("panel.frame.y") == 252)
        harness.advance(by: 0.25)
        // A quarter of the way along a linear curve; the Bézier solver is exact to 1e-7 in x.
        #expect(abs(harness.number("panel.presentation.frame.y") - (468 - 216 * 0.25)) < 1e-4)
        harness.advance(by: 0.75)
        #expect(harness.number("panel.presentation.frame.y") == 252)
        #expect(harness.deliveredNames().contains("keyboard.didShow"))
    }

    @Test func anUnclaimedEventFailsTheTest() throws {
        try withKnownIssue {
            let harness = try PluginHarness(FormNavigator.self, scene: form)
            harness.send(.returnKey(NodeTarget(target: "field2")))
            harness.receive("resign")
        } matching: { issue in
            issue.description.contains("did not receive: form.next")
        }
    }

    @Test func aMismatchedOrMissingEventFailsTheTest() throws {
        let harness = try PluginHarness(FormNavigator.self, scene: form)
        harness.send(.returnKey(NodeTarget(target: "field1")))
        withKnownIssue { harness.receive("focus", ["target": "field9"]) }
        withKnownIssue { harness.receive("resign") }
        withKnownIssue { harness.receive("form.next") }
    }

    @Test func sendingSomethingTheSimulationRefusesFailsTheTest() throws {
        let harness = try PluginHarness(FormNavigator.self, scene: form)
        withKnownIssue { harness.send(.focus(NodeTarget(target: "nobody"))) }
        withKnownIssue { _ = harness.value("panel.frame.depth") }
    }

    /// `tap(on:)` and `type(_:into:)` find their node by a query as the scene is now; one that
    /// finds none or several fails the test, naming the nodes, and sends nothing.
    @Test func nodesAreFoundByQueries() throws {
        let harness = try PluginHarness(FormNavigator.self) { scene in
            try form(scene)
            var label = Node(id: "first", kind: .label, frame: Rect(x: 20, y: 0, width: 100, height: 20))
            label.text = "Name"
            try scene.add(label)
            try scene.update("field2") { $0.accessibilityLabel = "Email" }
        }
        harness.tap(on: .label("Email"))
        harness.type("ada", into: .kind(.textField).at(0))
        #expect(harness.value("firstResponder") == "field2")
        #expect(harness.value("field1.text") == "ada")
        #expect(harness.node(.text("Name")) == "first")
        let before = harness.delivered.count
        withKnownIssue {
            harness.tap(on: .text("Nmae"))
        } matching: { issue in
            issue.description.contains("no node matches {text: \"Nmae\"}; nearest: 'first' (label, text \"Name\"")
        }
        withKnownIssue {
            harness.tap(on: .kind(.textField))
        } matching: { issue in
            issue.description.contains("2 nodes match {kind: textField}")
        }
        #expect(harness.delivered.count == before)
    }

    @Test func exhaustivityCanBeTurnedOffOrSkipped() throws {
        let relaxed = try PluginHarness(FormNavigator.self, scene: form)
        relaxed.exhaustive = false
        relaxed.send(.returnKey(NodeTarget(target: "field1")))

        let skipping = try PluginHarness(FormNavigator.self, scene: form)
        skipping.send(.returnKey(NodeTarget(target: "field1")))
        skipping.skipReceivedEvents()
        skipping.send(.returnKey(NodeTarget(target: "field2")))
        skipping.receive("resign")
        skipping.receive("form.next", ["from": "field2"])
    }
}
