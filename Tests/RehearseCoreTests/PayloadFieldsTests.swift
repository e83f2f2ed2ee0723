import Testing

@testable import RehearseCore

/// Each built-in payload's declared fields (`PayloadFields`, from which `rehearse events`, the
/// loader's field check and the JSON Schema take them) are what reading it accepts and refuses.
/// A `TabulatedPayload`'s declaration and reading come from one table, and payloads read by hand
/// through a `FieldReader` made with their declaration check it on every read in debug builds;
/// this test checks all of them, the `Codable` ones too, from the outside.
@Suite struct PayloadFieldsTests {
    /// Payloads that cannot be read from their required fields alone, and why.
    static let moreThanTheRequired: [BuiltinEvent: String] = [
        .tap: "a tap needs x and y, or a target, all of them optional"
    ]

    @Test(arguments: BuiltinEvent.allCases)
    func theDeclaredFieldsAreWhatReadingAcceptsAndRefuses(event: BuiltinEvent) throws {
        let (required, optional) = event.declaredFields
        // Samples of every event with this payload (touch.moved's are touch.began's too).
        let payload = ObjectIdentifier(event.payloadType)
        let samples = EventCodecTests.everyEvent.filter { $0.builtin.map { ObjectIdentifier($0.payloadType) } == payload }.map(
            \.fields)
        let full = try #require(samples.max { $0.count < $1.count }, "no sample of \(event.name)")
        // Every field a payload has is declared, and every declared one is in some sample.
        #expect(Set(samples.flatMap(\.keys)) == required.union(optional), "\(event.name): \(event.fieldSummary)")
        #expect(required.isDisjoint(with: optional))
        for name in required.sorted() {
            var without = full
            without[name] = nil
            #expect(throws: FieldError(path: name, problem: .missing), "\(event.name) without \(name)") {
                try event.event(from: without)
            }
        }
        var extra = full
        extra["unexpected"] = .bool(true)
        #expect(throws: FieldError.self, "\(event.name) with a field it does not declare") { try event.event(from: extra) }
        let onlyRequired = full.filter { required.contains($0.key) }
        if let reason = Self.moreThanTheRequired[event] {
            #expect(throws: FieldError.self, "\(event.name): \(reason)") { try event.event(from: onlyRequired) }
        } else {
            #expect(throws: Never.self, "\(event.name) with only its required fields") { try event.event(from: onlyRequired) }
        }
    }

    /// The summary lists every field, a `?` after the optional ones, as `rehearse events` shows it.
    @Test func theSummaryMarksTheOptionalFields() {
        #expect(
            BuiltinEvent.keyboardWillShow.fieldSummary
                == "frame {x,y,width,height}, beginFrame?, duration?, curve?: linear | easeIn | easeOut | easeInEaseOut | default | keyboard"
        )
        #expect(BuiltinEvent.orientation.fieldSummary == "value: portrait | portraitUpsideDown | landscapeLeft | landscapeRight")
        #expect(BuiltinEvent.touchBegan.fieldSummary == "id, x, y, target?; delivered with target")
    }
}
