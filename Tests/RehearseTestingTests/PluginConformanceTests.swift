import RehearseCore
import RehearseTesting
import Testing

/// A plugin whose every declaration is wrong in one way the kit checks: its id, a configuration
/// that does not read back, a state key it does not declare, a declared value its state does not
/// start in, an event whose summary names a field it does not have.
private final class Misdeclared: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var speed = 1.0
        /// Never written to the field form, so it reads back as the decoder's default.
        var hidden = 2

        enum CodingKeys: String, CodingKey { case speed }

        init() {}

        init(from decoder: any Decoder) throws {
            speed = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .speed)
            hidden = 0
        }
    }

    struct Moved: PluginEvent, Codable {
        static let name = "misdeclared.moved"
        static let fieldSummary = "distance, direction?"
        static let summary = "tests only"
        var metres: Double
    }

    static let id = "Mis_declared"
    static let summary = "declares everything wrong (tests only)"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [Moved.self]
    static let stateKeys = [PluginStateKey("mode", "its mode", values: ["idle", "busy"])]

    init(configuration: Configuration, context: PluginContext) {}

    var state: Fields { ["mode": "asleep", "count": 0] }
}

/// The conformance kit finds each kind of mistake it promises to (the shipped plugins and the
/// example's pass it in their own tests).
@Suite struct PluginConformanceTests {
    @Test func eachMisdeclarationIsNamed() {
        let problems = PluginConformance.problems(of: Misdeclared.self, samples: [Misdeclared.Moved(metres: 2)])
        #expect(problems.count == 5, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("id 'Mis_declared'") })
        #expect(problems.contains { $0.hasPrefix("the default configuration reads back differently") })
        #expect(problems.contains("state has the keys [\"count\", \"mode\"], stateKeys declares [\"mode\"]"))
        #expect(problems.contains("state 'mode' starts as asleep, not one of its declared values [\"idle\", \"busy\"]"))
        #expect(problems.contains { $0.hasPrefix("event 'misdeclared.moved': fieldSummary 'distance, direction?' names") })
    }

    @Test func aDeclaredEventWithoutASampleIsNamed() {
        #expect(
            PluginConformance.problems(of: Misdeclared.self).contains(
                "event 'misdeclared.moved': no sample to check its fields against its fieldSummary"))
    }
}
