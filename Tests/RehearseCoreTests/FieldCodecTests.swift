import Testing

@testable import RehearseCore

/// `FieldCodec` reads and writes fields directly (no JSON in between) and gives what the JSON
/// round trip it replaced gave: whole numbers as integers, NaN refused, unknown keys refused.
struct FieldCodecTests {
    private struct Sample: Codable, Equatable {
        enum Mode: String, Codable { case fast, slow }
        struct Inner: Codable, Equatable {
            var ratio = 0.5
            var tags: [String] = ["a"]
        }
        var count = 3
        var scale = 2.0
        var mode = Mode.fast
        var inner = Inner()
        var limits: [String: Bool] = ["x": true]
        var note: String?
        var extra: FieldValue = ["n": 1.0, "list": [2.5, 3.0]]
    }

    @Test func aValueRoundTripsWithWholeNumbersAsIntegers() throws {
        let fields = FieldCodec.fields(of: Sample())
        #expect(
            fields == [
                "count": 3, "scale": 2, "mode": "fast", "inner": ["ratio": 0.5, "tags": ["a"]],
                "limits": ["x": true], "extra": ["n": 1, "list": [2.5, 3]],
            ])
        var normalised = Sample()
        normalised.extra = ["n": 1, "list": [2.5, 3]]  // 1.0 and 3.0 come back as integers, as JSON gave them
        #expect(try FieldCodec.value(Sample.self, from: fields) == normalised)
        var changed = Sample()
        changed.note = "hi"
        #expect(try FieldCodec.value(Sample.self, from: FieldCodec.fields(of: changed)).note == "hi")
    }

    @Test func badFieldsAreNamedWithTheirPath() {
        #expect(throws: FieldError(path: "inner.tags.0", problem: .wrongType(expected: "a string", found: "an integer"))) {
            try FieldCodec.configuration(Sample.self, defaults: Sample(), overrides: ["inner": ["tags": [1]]])
        }
        #expect(throws: FieldError(path: "count", problem: .wrongType(expected: "a whole number", found: "a number"))) {
            try FieldCodec.configuration(Sample.self, defaults: Sample(), overrides: ["count": 2.5])
        }
        #expect(
            throws: FieldError(path: "typo", problem: .unknown(known: ["count", "extra", "inner", "limits", "mode", "scale"]))
        ) {
            try FieldCodec.configuration(Sample.self, defaults: Sample(), overrides: ["typo": 1])
        }
        var nan = Sample()
        nan.scale = .nan
        #expect(FieldCodec.fields(of: nan).isEmpty, "JSON cannot hold NaN, and neither can the field form")
    }
}
