import RehearseCore
import RehearseTesting
import Testing

@testable import AutoScroll

/// The form: fields 50 high, 20 apart from y 20 (field n at 20 + 70 (n - 1)); content 574 high;
/// an iPhone 5 (568 high, keyboard 216 in portrait, 162 in landscape).
private func harness(
    _ configure: (inout AutoScroll.Configuration) -> Void = { _ in },
    scene extra: (Scene) throws -> Void = { _ in }
) throws -> PluginHarness<AutoScroll> {
    var configuration = AutoScroll.Configuration()
    configure(&configuration)
    let harness = try PluginHarness(AutoScroll.self, configuration: configuration) { scene in
        try AutoScroll.scene?.build(scene)
        try extra(scene)
    }
    harness.exhaustive = false
    return harness
}

private func offsetAfterFocusing(_ field: String, _ harness: PluginHarness<AutoScroll>) -> Double {
    harness.send(.focus(NodeTarget(target: field)))
    harness.advance(by: 1)
    return harness.number("scroll.contentOffset.y")
}

@Suite struct AutoScrollTests {
    /// A finger holding the form while the keyboard rises (issue 26): the original scrolls field 7 into
    /// view under it (289); `pause` leaves the offset where the finger holds it; `resume` scrolls
    /// once the finger has let go (still, so nothing moves by itself). The insets come in all three.
    @Test(arguments: [AutoScroll.WhileUserScrolls.original, .pause, .resume])
    func theKeyboardRisingWhileAFingerHoldsTheForm(mode: AutoScroll.WhileUserScrolls) throws {
        let harness = try harness { $0.whileUserScrolls = mode }
        let finger = { (phase: TouchPhase, y: Double) in harness.send(Event(phase, Touch(id: 0, point: Point(x: 160, y: y)))) }
        finger(.began, 400)
        finger(.moved, 380)  // the pan begins (20 points)
        finger(.moved, 340)
        let held = harness.number("scroll.contentOffset.y")
        harness.send(.focus(NodeTarget(target: "field7")))
        harness.advance(by: 0.6)
        #expect(harness.number("scroll.contentInset.bottom") == 216)
        #expect(harness.value("auto-scroll.userScrolling") == true)
        #expect(harness.number("scroll.contentOffset.y") == (mode == .original ? 289 : held))
        finger(.ended, 340)
        harness.advance(by: 2)
        #expect(harness.value("auto-scroll.userScrolling") == false)
        let expected: Double =
            switch mode {
            case .original: 222  // let go past the end of the range the insets made: it springs back
            case .pause: held
            case .resume: 289
            }
        #expect(abs(harness.number("scroll.contentOffset.y") - expected) < 1e-9)
    }

    /// With clamp, the focused field ends above the keyboard; scrolled away under it, the
    /// invariant breaks. Without clamp the plugin promises nothing of the kind.
    @Test func withClampAFieldUnderTheKeyboardBreaksTheInvariant() throws {
        #expect(try harness().simulation.invariants.isEmpty)
        let harness = try harness { $0.clamp = true }
        for field in ["field1", "field4", "field7"] { _ = offsetAfterFocusing(field, harness) }
        #expect(harness.brokenInvariants.isEmpty)
        try harness.simulation.scene.update("scroll") { $0.contentOffset.y = -300 }
        harness.send(.network(NetworkChange(online: true)))
        #expect(harness.brokenInvariants == ["the focused field is above the keyboard"])
    }

    /// offset = fieldY - ((scrollHeight - keyboard) - fieldHeight) / 2 (AutoScrollHelper.cs):
    /// field 3 at y 160: 160 - ((568 - 216) - 50) / 2 = 9.
    @Test(arguments: [("field3", 9.0), ("field5", 149.0)])
    func theFieldIsCentredAboveTheKeyboard(field: String, expected: Double) throws {
        let harness = try harness()
        #expect(offsetAfterFocusing(field, harness) == expected)
        #expect(harness.number("scroll.contentInset.bottom") == 216)
        #expect(harness.number("scroll.scrollIndicatorInsets.bottom") == 216)
        #expect(harness.number("scroll.contentOffset.x") == 0)
    }

    /// Near the top the original scrolls above the content (negative), near the bottom past it;
    /// `clamp` keeps the offset in [-inset.top, 574 + 216 - 568 = 222].
    @Test func theOffsetIsUnclampedByDefaultAndClampedWithTheOption() throws {
        #expect(offsetAfterFocusing("field1", try harness()) == 20 - 151)
        #expect(offsetAfterFocusing("field7", try harness()) == 440 - 151)
        #expect(offsetAfterFocusing("field1", try harness { $0.clamp = true }) == 0)
        #expect(offsetAfterFocusing("field7", try harness { $0.clamp = true }) == 222)
    }

    /// The offset animates with the keyboard's own curve (curve 7) from the current state.
    @Test func theScrollFollowsTheKeyboardsCurve() throws {
        let harness = try harness()
        harness.send(.focus(NodeTarget(target: "field3")))
        harness.advance(by: 0.1)
        #expect(abs(harness.number("scroll.presentation.contentOffset.y") - 9 * KeyboardCurve.progress(at: 0.1)) < 1e-9)
        #expect(harness.number("scroll.contentOffset.y") == 9)
    }

    /// Hiding reads the begin frame and puts the insets back to zero (overwriting what was there).
    @Test func insetsGoBackToZeroOnHide() throws {
        let harness = try harness(scene: { try $0.update("scroll") { $0.contentInset.top = 64 } })
        _ = offsetAfterFocusing("field3", harness)
        #expect(harness.number("scroll.contentInset.top") == 0)
        harness.send(.resign(ResignRequest()))
        harness.advance(by: 1)
        #expect(harness.value("scroll.contentInset") == EdgeInsets.zero.fieldValue)
        #expect(harness.value("scroll.scrollIndicatorInsets") == EdgeInsets.zero.fieldValue)
    }

    @Test func keepInsetsAddsToAndRestoresThePreviousInsets() throws {
        let harness = try harness(
            { $0.keepInsets = true },
            scene: {
                try $0.update("scroll") { $0.contentInset = EdgeInsets(top: 64, left: 0, bottom: 10, right: 0) }
            })
        _ = offsetAfterFocusing("field3", harness)
        #expect(harness.value("scroll.contentInset") == EdgeInsets(top: 64, left: 0, bottom: 226, right: 0).fieldValue)
        harness.send(.resign(ResignRequest()))
        harness.advance(by: 1)
        #expect(harness.value("scroll.contentInset") == EdgeInsets(top: 64, left: 0, bottom: 10, right: 0).fieldValue)
    }

    /// Landscape (568 × 320, the scroll view resized as autoresizing would): the original takes
    /// the keyboard frame's width (568) as its height and the scroll view's width as the space:
    /// 160 - ((568 - 568) - 50) / 2 = 185. Measured: the real overlap is 162 high:
    /// 160 - ((320 - 162) - 50) / 2 = 106.
    @Test(arguments: [(AutoScroll.Overlap.original, 568.0, 185.0), (.measured, 162, 106)])
    func landscape(overlap: AutoScroll.Overlap, inset: Double, offset: Double) throws {
        let harness = try harness { $0.overlap = overlap }
        harness.send(.orientation(OrientationChange(value: .landscapeLeft)))
        try harness.simulation.setValue(Rect(x: 0, y: 0, width: 568, height: 320).fieldValue, at: "scroll.frame")
        #expect(offsetAfterFocusing("field3", harness) == offset)
        #expect(harness.number("scroll.contentInset.bottom") == inset)
    }

    /// A scroll view that stops 100 points above the screen's bottom: the keyboard covers only 116
    /// of it, which `measured` uses; the original still takes 216.
    @Test func measuredOverlapForAScrollViewThatDoesNotReachTheBottom() throws {
        let shortened: (Scene) throws -> Void = { try $0.update("scroll") { $0.frame.size.height = 468 } }
        #expect(offsetAfterFocusing("field3", try harness(scene: shortened)) == 160 - (468 - 216 - 50) / 2)
        let measured = try harness({ $0.overlap = .measured }, scene: shortened)
        #expect(offsetAfterFocusing("field3", measured) == 160 - (468 - 116 - 50) / 2)
        #expect(measured.number("scroll.contentInset.bottom") == 116)
    }

    @Test func tapsOffControlsEndEditingTapsOnControlsDoNot() throws {
        let harness = try PluginHarness(AutoScroll.self) { try AutoScroll.scene?.build($0) }
        harness.send(.focus(NodeTarget(target: "field1")))
        harness.send(.tap(Tap(target: "save")))
        #expect(harness.value("firstResponder") == "field1")
        harness.send(.tap(Tap(point: Point(x: 5, y: 5))))
        harness.receive("resign")
        #expect(harness.value("firstResponder") == nil)
    }

    /// Send moves to the field tagged one more; Done ends editing and saves.
    @Test func returnKeysNavigateByTagAndDoneSaves() throws {
        let harness = try PluginHarness(AutoScroll.self) { try AutoScroll.scene?.build($0) }
        harness.send(.focus(NodeTarget(target: "field1")))
        harness.send(.returnKey(NodeTarget(target: "field1")))
        harness.receive("focus", ["target": "field2"])
        #expect(harness.value("firstResponder") == "field2")
        harness.send(.returnKey(NodeTarget(target: "field7")))
        harness.receive("resign")
        harness.receive("form.save")
        #expect(harness.value("firstResponder") == nil)
    }

    /// Tags out of screen order: by tag the original jumps; `layout` goes to the next one down.
    @Test func layoutOrderFollowsTheScreenNotTheTags() throws {
        let swapTags: (Scene) throws -> Void = { scene in
            try scene.update("field2") { $0.tag = 3 }
            try scene.update("field3") { $0.tag = 2 }
        }
        let byTag = try harness(scene: swapTags)
        byTag.send(.returnKey(NodeTarget(target: "field1")))
        #expect(byTag.value("firstResponder") == "field3")
        let byLayout = try harness({ $0.order = .layout }, scene: swapTags)
        byLayout.send(.returnKey(NodeTarget(target: "field1")))
        #expect(byLayout.value("firstResponder") == "field2")
    }

    @Test func aFieldOutsideAnyScrollViewIsLeftAlone() throws {
        let harness = try harness(scene: {
            try $0.add(Node(id: "loose", kind: .textField, frame: Rect(x: 0, y: 500, width: 100, height: 30)))
        })
        #expect(offsetAfterFocusing("loose", harness) == 0)
        #expect(harness.number("scroll.contentInset.bottom") == 0)
    }
}

/// Its declarations say what it does (RehearseTesting's conformance kit).
@Test func autoScrollConforms() {
    #expect(PluginConformance.problems(of: AutoScroll.self, samples: [FormSave()]) == [])
}
