import Testing

@testable import RehearseCore

@Suite struct EventCodecTests {
    static let keyboard = KeyboardChange(
        frame: Rect(x: 0, y: 352, width: 320, height: 216), beginFrame: Rect(x: 0, y: 568, width: 320, height: 216),
        duration: 0.25, curve: .keyboard)

    /// One of every built-in event, with every optional field set somewhere.
    static let everyEvent: [Event] = [
        .keyboardWillShow(keyboard), .keyboardDidShow(keyboard), .keyboardWillHide(keyboard), .keyboardDidHide(keyboard),
        .focus(NodeTarget(target: "username")),
        .focusChanged(FocusChange(from: "username", to: "password")),
        .focusChanged(FocusChange(from: nil, to: "username")),
        .resign(ResignRequest(target: "username")), .resign(ResignRequest()),
        .tap(Tap(point: Point(x: 10, y: 20), target: "title", isControl: false)),
        .tap(Tap(target: "username")),
        .text(TextInput(target: "username", text: "vijay \"quoted\"\n")),
        .returnKey(NodeTarget(target: "password")),
        .motion(
            MotionSample(
                rotationRate: Vector3(x: 0.1, y: -2, z: 0), attitude: Attitude(roll: 1, pitch: 2, yaw: 3),
                gravity: Vector3(x: 0, y: -1, z: 0), userAcceleration: Vector3(x: 0, y: 0, z: 0.5))),
        .tick(Tick(timestamp: VirtualTime(nanoseconds: 16_666_666), targetTimestamp: VirtualTime(nanoseconds: 33_333_333))),
        .orientation(OrientationChange(value: .landscapeLeft)),
        .animationFinished(AnimationFinished(target: "title", property: "frame", finished: false)),
        .network(NetworkChange(online: true)),
        .pluginFailed(PluginFailure(plugin: "gateway", error: "boom")),
        .invariantFailed(
            InvariantFailure(
                name: "one child", owner: "gateway", actual: "gateway.children.count = 2",
                expected: "== 1")),
        .touchBegan(Touch(id: 1, point: Point(x: 10, y: 20), target: "title")),
        .touchMoved(Touch(id: 1, point: Point(x: 11, y: 22))),
        .touchEnded(Touch(id: 1, point: Point(x: 12, y: 24), target: "root")), .touchCancelled(Touch(id: 3, point: .zero)),
        .gesturePan(
            PanGesture(
                state: .changed, target: "scroll", translation: Point(x: 0, y: -40),
                velocity: Point(x: 0, y: -800), location: Point(x: 160, y: 300))),
        .gestureSwipe(SwipeGesture(state: .ended, target: nil, direction: .left, location: Point(x: 100, y: 100))),
        .gestureSwipe(SwipeGesture(state: .ended, target: "card", direction: .up, location: Point(x: 10, y: 10))),
        .gestureLongPress(LongPressGesture(state: .began, target: "title", location: Point(x: 5, y: 5))),
        .gesturePinch(PinchGesture(state: .ended, target: "image", scale: 1.5, velocity: 0.8, center: Point(x: 160, y: 284))),
        .scrollWillBeginDragging(NodeTarget(target: "scroll")),
        .scrollDidScroll(ScrollPosition(target: "scroll", contentOffset: Point(x: 0, y: 120.5))),
        .scrollWillEndDragging(
            ScrollRelease(
                target: "scroll", velocity: Point(x: 0, y: 1200),
                targetContentOffset: Point(x: 0, y: 600))),
        .scrollDidEndDecelerating(ScrollPosition(target: "scroll", contentOffset: Point(x: 0, y: 600))),
        .scrollDidScrollToTop(ScrollPosition(target: "scroll", contentOffset: Point(x: 0, y: -20))),
        .statusBarTap(StatusBarTap()),
        .scrollWillBeginZooming(ScrollZoom(target: "photo", view: "image", zoomScale: 1)),
        .scrollDidZoom(ScrollZoom(target: "photo", view: "image", zoomScale: 2.5)),
        .scrollDidEndZooming(ScrollZoom(target: "photo", view: "image", zoomScale: 4)),
        .custom(name: "login.submit", fields: ["username": "vijay", "attempt": 2, "nested": ["a": [1, 2.5]]]),
    ]

    @Test func everyEventSurvivesTheFieldForm() throws {
        for event in Self.everyEvent {
            let decoded = try Event(name: event.name, fields: event.fields)
            #expect(decoded == event, "\(event.name)")
        }
    }

    /// `BuiltinEvent.payloadType` (which docs/plugins.md's payload table shows) is the type the
    /// event carries.
    @Test func everyBuiltinEventCarriesItsDeclaredPayloadType() throws {
        for event in Self.everyEvent {
            guard let builtin = BuiltinEvent(name: event.name) else { continue }
            let payload = try #require(Mirror(reflecting: event).children.first?.value, "\(event.name)")
            #expect(type(of: payload) == builtin.payloadType, "\(event.name)")
        }
    }

    @Test func everyBuiltinNameIsCovered() {
        let covered = Set(Self.everyEvent.map(\.name))
        #expect(Set(Event.builtinNames).isSubset(of: covered))
        #expect(EventDescription.builtin.map(\.name) == Event.builtinNames)
    }

    @Test func missingFieldIsNamed() {
        #expect(throws: FieldError(path: "target", problem: .missing)) { try Event(name: "focus", fields: [:]) }
        #expect(throws: FieldError(path: "frame", problem: .missing)) {
            try Event(name: "keyboard.willShow", fields: ["duration": 0.25])
        }
    }

    @Test func wrongTypeIsNamedWithItsPath() {
        #expect(throws: FieldError(path: "rotationRate.y", problem: .wrongType(expected: "a number", found: "a string"))) {
            try Event(name: "motion", fields: ["rotationRate": ["x": 0, "y": "fast", "z": 0]])
        }
        #expect(throws: FieldError(path: "online", problem: .wrongType(expected: "a boolean", found: "an integer"))) {
            try Event(name: "network", fields: ["online": 1])
        }
    }

    @Test func unknownFieldsAndBadValuesAreRefused() throws {
        let error = try #require(throws: FieldError.self) { try Event(name: "focus", fields: ["target": "a", "targte": "b"]) }
        #expect(error.path == "targte")
        #expect(error.description == "field 'targte' is not known (did you mean 'target'?); known: target")
        #expect(throws: FieldError.self) { try Event(name: "tap", fields: ["x": .double(.nan), "y": 1]) }
        #expect(throws: FieldError.self) { try Event(name: "tap", fields: ["x": 1]) }
        #expect(throws: FieldError.self) { try Event(name: "tap", fields: [:]) }
        #expect(throws: FieldError.self) { try Event(name: "orientation", fields: ["value": "sideways"]) }
        #expect(throws: FieldError.self) {
            try Event(name: "keyboard.willShow", fields: ["frame": [0, 0, 1, 1], "duration": -1])
        }
    }

    /// Issue 25: a required field that is missing because it was misspelt is reported as the
    /// misspelt one, with the name meant; one-letter names are not guessed at (`x` for `y`).
    @Test func aMissingFieldNamesItsLikelyMisspelling() throws {
        let text = try #require(throws: FieldError.self) {
            try Event(name: "text", fields: ["target": "username", "txt": "oops"])
        }
        #expect(text.description == "field 'txt' is not known (did you mean 'text'?)")
        let nested = try #require(throws: FieldError.self) {
            try Event(
                name: "motion",
                fields: ["rotationRate": ["x": 0, "y": 0, "z": 0], "attitude": ["rol": 0, "pitch": 0, "yaw": 0]])
        }
        #expect(nested.description == "field 'attitude.rol' is not known (did you mean 'roll'?)")
        let short = try #require(throws: FieldError.self) { try Event(name: "tap", fields: ["x": 1, "z": 2]) }
        #expect(short.description == "field 'z' is not known; known: isControl, target, x, y")
        #expect(throws: FieldError(path: "text", problem: .missing)) { try Event(name: "text", fields: ["target": "username"]) }
    }

    @Test func framesAcceptAListOfFourNumbers() throws {
        let event = try Event(name: "keyboard.willHide", fields: ["frame": [0, 568, 320, 216]])
        guard case .keyboardWillHide(let change) = event else {
            Issue.record("decoded \(event.name)")
            return
        }
        #expect(change.frame == Rect(x: 0, y: 568, width: 320, height: 216))
        #expect(change.beginFrame == change.frame)
        #expect(change.curve == .keyboard)
        #expect(change.duration == 0.25)
    }

    @Test func traceLinesAreSortedExactAndEscaped() {
        let line = DeliveredEvent(
            sequence: 7, time: VirtualTime(nanoseconds: 16_666_666),
            event: .text(TextInput(target: "username", text: "a\"b\n\u{1}")), source: "injected"
        ).traceLine
        #expect(line == #"{"fields":{"target":"username","text":"a\"b\n\u0001"},"name":"text","seq":7,"time":0.016666666}"#)
    }

    /// A content offset at rest past the top computes as -0.0 (the spring's `0 × e^-t` from a
    /// negative side): its sign means nothing, and a trace writes it 0.0.
    @Test func negativeZeroIsWrittenAsZero() {
        let line = DeliveredEvent(
            sequence: 1, time: .zero,
            event: .scrollDidScroll(ScrollPosition(target: "list", contentOffset: Point(x: 0, y: -0.0))), source: "scrolling"
        ).traceLine
        #expect(
            line == #"{"fields":{"contentOffset":{"x":0.0,"y":0.0},"target":"list"},"name":"scroll.didScroll","seq":1,"time":0}"#)
        #expect(FieldValue.double(-0.0).jsonText == "0.0")
        #expect(FieldValue.double(-0.5).jsonText == "-0.5")
    }

    @Test func matchingTreatsMappingsAsSubsetsAndNumbersWithinTolerance() {
        let actual: FieldValue = ["frame": ["x": 0, "y": 352.0000000001], "duration": 0.25, "curve": "keyboard"]
        #expect(FieldValue.dictionary(["frame": ["y": 352]]).matches(actual))
        #expect(FieldValue.dictionary(["curve": "keyboard", "duration": 0.25]).matches(actual))
        #expect(!FieldValue.dictionary(["frame": ["y": 353]]).matches(actual))
        #expect(!FieldValue.dictionary(["missing": 1]).matches(actual))
        #expect(!FieldValue.array([1, 2]).matches([1, 2, 3]))
    }
}
