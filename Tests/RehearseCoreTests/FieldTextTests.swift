import Testing

@testable import RehearseCore

/// Values written as text, as the command line and D-Bus `InjectStrings` take them.
struct FieldTextTests {
    @Test func textsAreReadAsTheValuesPeopleMean() {
        #expect(FieldText.value("true") == .bool(true))
        #expect(FieldText.value("12") == .int(12))
        #expect(FieldText.value("-0.5") == .double(-0.5))
        #expect(FieldText.value("2e3") == .double(2000))
        #expect(FieldText.value("hello world") == .string("hello world"))
    }

    /// The attack on issue 39's surfaces found `InjectStrings` reading `0x10` as the number 16:
    /// Swift's `Double(_:)` also reads hexadecimal (and `0x1p3` as 8). Only decimal numbers are
    /// numbers; the rest stays the text it was.
    @Test func onlyFiniteDecimalNumbersAreNumbers() {
        for text in ["0x10", "0x1p3", "nan", "inf", "-infinity", "1e999", "0X1F"] {
            #expect(FieldText.value(text) == .string(text), "\(text)")
        }
    }

    /// The attack on this stop's touch change found one `InjectStrings` call with a key of 10,000
    /// dots crash the service: each part nested the fields one level deeper, by recursion, until
    /// the stack ran out. A key has at most ``FieldText/maximumKeyParts`` parts, as deep as a
    /// D-Bus value may nest.
    @Test func aKeyOfTooManyPartsIsRefusedNotNested() throws {
        let deepest = (1...FieldText.maximumKeyParts).map { _ in "a" }.joined(separator: ".")
        #expect(throws: Never.self) { try FieldText.fields([(deepest, "1")]) }
        let key = String(repeating: "a.", count: 10_000) + "b"
        #expect(throws: FieldError(path: "a.…", problem: .invalidValue("has 10001 parts; the limit is 32"))) {
            try FieldText.fields([(key, "1")])
        }
    }
}
