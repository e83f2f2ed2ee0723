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
}
