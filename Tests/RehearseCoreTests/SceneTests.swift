import Testing

@testable import RehearseCore

@Suite struct SceneTests {
    /// A 320×400 scroll view at y 100 with content 1000 high scrolled down by 300, holding a field
    /// at content y 500.
    private func scrolledForm() throws -> Simulation {
        let simulation = Simulation()
        try simulation.addNode("scroll", .scrollView, Rect(x: 0, y: 100, width: 320, height: 400)) {
            $0.contentSize = Size(width: 320, height: 1000)
            $0.contentOffset = Point(x: 0, y: 300)
        }
        try simulation.addNode("field", .textField, Rect(x: 20, y: 500, width: 280, height: 30), parent: "scroll")
        try simulation.addNode("hiddenButton", .button, Rect(x: 0, y: 0, width: 320, height: 568)) { $0.hidden = true }
        return simulation
    }

    @Test func hitTestingFollowsScrollOffsets() throws {
        let scene = try scrolledForm().scene
        // On screen the field sits at 100 + 500 - 300 = 300.
        #expect(scene.frameInScreen("field") == Rect(x: 20, y: 300, width: 280, height: 30))
        #expect(scene.hitTest(Point(x: 30, y: 310)) == "field")
        #expect(scene.hitTest(Point(x: 30, y: 299)) == "scroll")
        // Where the field would be without the offset (screen y 210) there is only the scroll view,
        // and below the scroll view only the root.
        #expect(scene.hitTest(Point(x: 30, y: 210)) == "scroll")
        #expect(scene.hitTest(Point(x: 30, y: 510)) == "root")
    }

    /// A hit test walks children by their slots (``Scene`` keeps them beside the children's ids):
    /// a removed child is not hit, a slot freed and taken again holds only its new node, and a
    /// scene restored from a snapshot hits what the snapshot held.
    @Test func hitTestsFollowChildrenRemovedAddedAndRestored() throws {
        let simulation = try scrolledForm()
        var scene = simulation.scene
        let field = Point(x: 30, y: 310)
        let snapshot = scene.snapshot()
        try scene.add(Node(id: "cover", kind: .view, frame: Rect(x: 0, y: 400, width: 320, height: 200)), to: "scroll")
        #expect(scene.hitTest(field) == "cover")
        scene = Scene(device: scene.device, restoring: snapshot)
        #expect(scene.hitTest(field) == "field")

        try scene.remove("field")
        #expect(scene.hitTest(field) == "scroll")
        // The field's slot, freed, is taken by a node elsewhere: the scroll view's hit test does not
        // find it where the field was.
        try scene.add(Node(id: "badge", kind: .view, frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(scene.hitTest(field) == "scroll")
        #expect(scene.hitTest(Point(x: 5, y: 5)) == "badge")

        // The scroll view's slot, freed with everything below it, is taken by a node with no
        // children: none of the scroll view's are hit through it.
        try scene.add(Node(id: "row", kind: .view, frame: Rect(x: 20, y: 500, width: 280, height: 30)), to: "scroll")
        try scene.remove("scroll")
        try scene.add(Node(id: "panel", kind: .view, frame: Rect(x: 0, y: 100, width: 320, height: 400)))
        try scene.add(Node(id: "other", kind: .view, frame: Rect(x: 0, y: 100, width: 320, height: 400)))
        #expect(scene.hitTest(field) == "other")
        try scene.remove("other")
        #expect(scene.hitTest(field) == "panel")
    }

    @Test func hiddenTransparentAndOffscreenNodesAreNotHit() throws {
        let simulation = try scrolledForm()
        #expect(simulation.scene.hitTest(Point(x: 1, y: 1)) == "root")
        try simulation.scene.update("field") { $0.alpha = 0.005 }
        #expect(simulation.scene.hitTest(Point(x: 30, y: 310)) == "scroll")
        #expect(simulation.scene.hitTest(Point(x: -1, y: 10)) == nil)
        #expect(simulation.scene.hitTest(Point(x: 320, y: 10)) == nil)
    }

    @Test func nodesAnimatingWithoutAllowUserInteractionIgnoreTaps() throws {
        let simulation = try scrolledForm()
        let log = simulation.record()
        let field = try #require(simulation.scene["field"])
        simulation.animator.animate(AnimationParameters(duration: 1), owner: "test") {
            try? simulation.animator.set(field.frame.vector + SIMD4(1, 0, 0, 0), for: .frame, of: "field")
        }
        try simulation.inject(.tap(Tap(point: Point(x: 30, y: 310))))
        simulation.advance(seconds: 1)
        try simulation.inject(.tap(Tap(point: Point(x: 30, y: 310))))
        let targets = log.events.compactMap { event -> String? in
            if case .tap(let tap) = event.event { return tap.target }
            return nil
        }
        #expect(targets == ["scroll", "field"])
    }

    /// How a scenario's `set` steps are checked when the file loads: the same refusals as making
    /// the change, and no change.
    @Test func checkingASettingRefusesWhatSettingRefusesAndChangesNothing() throws {
        let simulation = Simulation()
        try simulation.addNode("field", .textField, Rect(x: 0, y: 0, width: 100, height: 30))
        for (value, path) in [
            (FieldValue.int(3), "field.hidden"), (.string("x"), "field.frame.y"), (.bool(true), "field.kind"),
            (.string("sned"), "field.returnKey"), (.bool(true), "nothing.hidden"),
        ] {
            let checked = #expect(throws: PathError.self) { try simulation.checkSetting(value, at: path) }
            let set = #expect(throws: PathError.self) { try simulation.setValue(value, at: path) }
            #expect(checked == set, "\(path)")
        }
        try simulation.checkSetting("vijay", at: "field.text")
        try simulation.checkSetting(.double(50), at: "field.frame.y")
        try simulation.checkSetting(true, at: "statusBar.hidden")
        #expect(simulation.scene["field"]?.text == "")
        #expect(simulation.scene["field"]?.frame.minY == 0)
        #expect(!simulation.scene.statusBarHidden)
        try simulation.setValue(.double(50), at: "field.frame.y")
        #expect(simulation.scene["field"]?.frame.minY == 50)
    }

    @Test func sceneRefusesDuplicateAndUnknownIds() throws {
        let simulation = try scrolledForm()
        #expect(throws: SceneError.duplicateNode("field")) {
            try simulation.scene.add(Node(id: "field", kind: .view, frame: .zero))
        }
        #expect(throws: SceneError.reservedID("keyboard")) {
            try simulation.scene.add(Node(id: "keyboard", kind: .view, frame: .zero))
        }
        #expect(throws: SceneError.unknownNode("nowhere")) {
            try simulation.scene.add(Node(id: "new", kind: .view, frame: .zero), to: "nowhere")
        }
    }

    @Test func removingANodeTakesItsSubtreeAndFirstResponder() throws {
        let simulation = try scrolledForm()
        try simulation.inject(.focus(NodeTarget(target: "field")))
        try simulation.scene.remove("scroll")
        #expect(simulation.scene.allIDs == ["root", "hiddenButton"])
        #expect(simulation.scene.firstResponder == nil)
    }

    @Test func pathsReadModelPresentationSystemAndErrorsExplain() throws {
        let simulation = try scrolledForm()
        #expect(try simulation.value(at: "scroll.contentOffset.y") == 300.0)
        #expect(try simulation.value(at: "scroll.contentSize") == ["width": 320.0, "height": 1000.0])
        #expect(try simulation.value(at: "field.presentation.frame.x") == 20.0)
        #expect(try simulation.value(at: "field.kind") == "textField")
        #expect(try simulation.value(at: "time") == 0.0)
        #expect(try simulation.value(at: "statusBar.hidden") == false)
        #expect(try simulation.value(at: "children") == ["scroll", "hiddenButton"])
        #expect(throws: PathError(path: "field.frame.z", reason: "frame has x, y, width, height, maxX, maxY")) {
            try simulation.value(at: "field.frame.z")
        }
        #expect(throws: PathError.self) { try simulation.value(at: "nobody.frame.y") }
        #expect(throws: PathError.self) { try simulation.value(at: "field..y") }
        #expect(throws: PathError.self) { try simulation.value(at: "keyboard.colour") }
        #expect(
            throws: PathError(
                path: "field.presentation.text",
                reason: "presentation values exist for "
                    + AnimatableProperty.allCases.map(\.rawValue).joined(separator: ", ") + ", not text")
        ) {
            try simulation.value(at: "field.presentation.text")
        }
        #expect(throws: PathError(path: "field.text.length", reason: "'field.text' has no parts")) {
            try simulation.value(at: "field.text.length")
        }
    }

    /// Issue 25: a misspelt name in a path is answered with the nearest one that exists.
    @Test func pathErrorsSuggestTheNearestName() throws {
        let simulation = try scrolledForm()
        func reason(_ path: String) -> String {
            do {
                _ = try simulation.value(at: path)
                return "no error"
            } catch {
                return error.reason
            }
        }
        #expect(reason("feild.frame.y") == "'feild' is not a node, a plugin or a system path (did you mean 'field'?)")
        #expect(
            reason("field.frme.y").hasPrefix(
                "node 'field' has no property 'frme' (did you mean 'frame'?); its properties: frame, "))
        #expect(
            reason("field.presentation.frme").hasPrefix(
                "node 'field' has no property 'frme' (did you mean 'frame'?); presentation values"))
        #expect(reason("field.frame.maxx") == "frame has x, y, width, height, maxX, maxY (did you mean 'maxX'?)")
        #expect(reason("keybord.visible").hasSuffix("(did you mean 'keyboard'?)"))
    }
}
