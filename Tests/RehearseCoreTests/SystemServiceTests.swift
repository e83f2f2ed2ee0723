import Testing

@testable import RehearseCore

@Suite struct SystemServiceTests {
    /// Two text fields and a label on an iPhone 5, as the Paper login screen.
    private func loginScreen(model: AnimationModel = .additive) throws -> Simulation {
        let simulation = Simulation(animationModel: model)
        try simulation.addNode("title", .label, Rect(x: 100, y: 120, width: 120, height: 40))
        try simulation.addNode("username", .textField, Rect(x: 20, y: 260, width: 280, height: 30)) {
            $0.returnKey = .next
            $0.enablesReturnKeyAutomatically = true
        }
        try simulation.addNode("password", .textField, Rect(x: 20, y: 299, width: 280, height: 30)) {
            $0.secure = true
            $0.returnKey = .go
        }
        return simulation
    }

    private let quiet: Set<String> = ["tick", "animation.finished"]

    /// Focus → focus another → resign: willShow, then willShow again with the same frame (no hide
    /// in between), then willHide; each will followed by its did once the keyboard has arrived.
    @Test func keyboardPostsAsIOSDoesWhenFocusMoves() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        try simulation.inject(.focus(NodeTarget(target: "username")))
        simulation.advance(seconds: 1)
        try simulation.inject(.focus(NodeTarget(target: "password")))
        simulation.advance(seconds: 1)
        try simulation.inject(.resign(ResignRequest()))
        simulation.advance(seconds: 1)
        #expect(
            log.names(excluding: quiet) == [
                "focus", "focus.changed", "keyboard.willShow", "keyboard.didShow",
                "focus", "focus.changed", "keyboard.willShow", "keyboard.didShow",
                "resign", "focus.changed", "keyboard.willHide", "keyboard.didHide",
            ])
        let keyboardEvents = log.events.compactMap { event -> (String, KeyboardChange, Double)? in
            switch event.event {
            case .keyboardWillShow(let change), .keyboardWillHide(let change), .keyboardDidShow(let change),
                .keyboardDidHide(let change):
                (event.event.name, change, event.time.seconds)
            default: nil
            }
        }
        // iPhone 5 portrait: end frame {{0,352},{320,216}}, begin below the screen at y 568.
        let shown = Rect(x: 0, y: 352, width: 320, height: 216)
        let below = Rect(x: 0, y: 568, width: 320, height: 216)
        #expect(keyboardEvents[0].1 == KeyboardChange(frame: shown, beginFrame: below, duration: 0.25, curve: .keyboard))
        // didShow when the curve-7 spring has settled, 0.5 s after willShow.
        #expect(keyboardEvents[1].2 == 0.5)
        #expect(keyboardEvents[2].1.frame == shown && keyboardEvents[2].1.beginFrame == shown)
        #expect(keyboardEvents[4].1 == KeyboardChange(frame: below, beginFrame: shown, duration: 0.25, curve: .keyboard))
        #expect(try simulation.value(at: "keyboard.visible") == false)
        #expect(try simulation.value(at: "firstResponder") == nil)
    }

    @Test func keyboardPresentationFrameFollowsCurve7() throws {
        let simulation = try loginScreen()
        try simulation.inject(.focus(NodeTarget(target: "username")))
        simulation.advance(seconds: 0.1)
        // 568 - 216 × 0.545 (curve 7 at 0.1 s) ≈ 450.3
        let expected = 568 - 216 * KeyboardCurve.progress(at: 0.1)
        #expect(abs(try simulation.number("keyboard.presentation.frame.y") - expected) < 1e-9)
        #expect(try simulation.number("keyboard.frame.y") == 352)
        #expect(try simulation.value(at: "keyboard.visible") == true)
    }

    @Test func rotatingPicksTheLandscapeKeyboard() throws {
        let simulation = try loginScreen()
        try simulation.inject(.focus(NodeTarget(target: "username")))
        simulation.advance(seconds: 1)
        try simulation.inject(.orientation(OrientationChange(value: .landscapeLeft)))
        // Landscape iPhone 5 is 568×320; the landscape keyboard is 162 high.
        #expect(try simulation.value(at: "keyboard.frame") == Rect(x: 0, y: 158, width: 568, height: 162).fieldValue)
        #expect(try simulation.value(at: "root.frame") == Rect(x: 0, y: 0, width: 568, height: 320).fieldValue)
        #expect(try simulation.value(at: "orientation") == "landscapeLeft")
    }

    @Test func injectedKeyboardEventsMoveTheKeyboardState() throws {
        let simulation = try loginScreen()
        let frame = Rect(x: 0, y: 300, width: 320, height: 268)
        try simulation.inject(.keyboardWillShow(KeyboardChange(frame: frame, beginFrame: frame, duration: 0, curve: .linear)))
        #expect(try simulation.value(at: "keyboard.visible") == true)
        #expect(try simulation.number("keyboard.frame.height") == 268)
    }

    @Test func tapOnATextFieldFocusesItAndTapsAreHitTested() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        try simulation.inject(.tap(Tap(point: Point(x: 30, y: 270))))
        try simulation.inject(.tap(Tap(point: Point(x: 5, y: 5))))
        let taps = log.events.compactMap { event -> Tap? in
            if case .tap(let tap) = event.event { return tap }
            return nil
        }
        #expect(taps.map(\.target) == ["username", "root"])
        #expect(taps.map(\.isControl) == [true, false])
        #expect(try simulation.value(at: "firstResponder") == "username")
    }

    @Test func tapByTargetIsDeliveredAtItsCentre() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        try simulation.inject(.tap(Tap(target: "title")))
        #expect(log.events.first?.event == .tap(Tap(point: Point(x: 160, y: 140), target: "title", isControl: false)))
    }

    @Test func secureTextNeverTravels() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        try simulation.inject(.text(TextInput(target: "password", text: "hunter2")))
        try simulation.inject(.text(TextInput(target: "username", text: "vijay")))
        #expect(log.events.map(\.traceLine).allSatisfy { !$0.contains("hunter2") })
        #expect(log.events.first?.event == .text(TextInput(target: "password", text: Redaction.placeholder)))
        #expect(try simulation.value(at: "password.text") == .string(Redaction.placeholder))
        #expect(simulation.scene["password"]?.text == "hunter2")
        #expect(try simulation.value(at: "username.text") == "vijay")
    }

    /// Secrets follow the text into plain fields too: typing what a secure field holds into a
    /// plain one (the password into the user name by mistake) sends `<redacted>`, as a plugin
    /// event carrying it would (the attack on the last stop found it in clear). The field itself
    /// holds what was typed.
    @Test func theSecureTextTypedIntoAPlainFieldDoesNotTravel() throws {
        let simulation = try loginScreen()
        try simulation.inject(.text(TextInput(target: "password", text: "hunter2")))
        let log = simulation.record()
        try simulation.inject(.text(TextInput(target: "username", text: "my hunter2!")))
        try simulation.inject(.text(TextInput(target: "username", text: "hunter")))
        #expect(
            log.events.map(\.event) == [
                .text(TextInput(target: "username", text: Redaction.placeholder)),
                .text(TextInput(target: "username", text: "hunter")),
            ])
        #expect(simulation.scene["username"]?.text == "my hunter2!hunter")
    }

    /// A field's text typed while it was secure cannot be unmasked by setting `secure` to false
    /// (a plugin's `set` once did, and the next path read, plugin call and trace carried the
    /// password): the set is refused and changes nothing until the text is cleared.
    @Test func aSecureFieldWithTextCannotBeUnmasked() throws {
        let simulation = try loginScreen()
        try simulation.inject(.text(TextInput(target: "password", text: "hunter2")))
        #expect(throws: PathError.self) { try simulation.setValue(.bool(false), at: "password.secure") }
        #expect(simulation.scene["password"]?.secure == true)
        #expect(try simulation.value(at: "password.text") == .string(Redaction.placeholder))
        try simulation.setValue(.string(""), at: "password.text")
        try simulation.setValue(.bool(false), at: "password.secure")
        #expect(simulation.scene["password"]?.secure == false)
    }

    @Test func returnIsSwallowedInAnEmptyFieldThatAutoDisablesIt() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        #expect(try simulation.inject(.returnKey(NodeTarget(target: "username"))) == nil)
        try simulation.inject(.text(TextInput(target: "username", text: "v")))
        #expect(try simulation.inject(.returnKey(NodeTarget(target: "username"))) != nil)
        // The password field does not auto-disable return: an empty return goes through.
        #expect(try simulation.inject(.returnKey(NodeTarget(target: "password"))) != nil)
        #expect(log.names == ["text", "return", "return"])
    }

    @Test func injectionRefusesUnknownNamesAndTargetsAndChangesNothing() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        #expect(throws: InjectionError.unknownNode(field: "target", id: "nobody")) {
            try simulation.inject(.focus(NodeTarget(target: "nobody")))
        }
        #expect(throws: InjectionError.notATextInput(field: "target", id: "title")) {
            try simulation.inject(.text(TextInput(target: "title", text: "x")))
        }
        #expect(throws: InjectionError.self) { try simulation.inject(.custom(name: "keyboard.willshow", fields: [:])) }
        #expect(throws: InjectionError.self) {
            try simulation.inject(.network(NetworkChange(online: true)), at: VirtualTime(nanoseconds: -1))
        }
        #expect(log.events.isEmpty)
        #expect(simulation.bus.lastSequence == 0)
    }

    @Test func injectAtDeliversAtTheGivenTime() throws {
        let simulation = try loginScreen()
        let log = simulation.record()
        try simulation.inject(.network(NetworkChange(online: false)), at: VirtualTime.seconds(2)!)
        simulation.advance(seconds: 1.999)
        #expect(log.events.isEmpty)
        simulation.advance(seconds: 0.001)
        #expect(log.events.map(\.time.seconds) == [2])
    }
}
