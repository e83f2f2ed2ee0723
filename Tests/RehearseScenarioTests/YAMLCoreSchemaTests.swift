import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// The loader reads YAML 1.2's core schema (the specification's section 10.3.2), as editors, the
/// YAML language server and JSON Schema validators do; issue 24 found it reading YAML 1.1, where
/// `wait: 010` ran as 8 seconds, `wait: 1:30` as 90 and `name: yes` was a boolean.
@Suite struct YAMLCoreSchemaTests {
    private func load(_ yaml: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(yaml.utf8), file: "f.yaml")
    }

    private func firstWait(_ value: String) throws -> VirtualTime {
        let scenario = try load("name: w\nsteps:\n  - wait: \(value)\n")
        guard case .wait(let duration)? = scenario.steps.first?.action else {
            Issue.record("the step is not a wait")
            return .zero
        }
        return duration
    }

    @Test(arguments: [
        // The core schema's integer forms: decimal (leading zeros are decimal), 0o octal, 0x hex.
        ("010", 10.0), ("+7", 7), ("0o17", 15), ("0x1F", 31),
        // Its float forms, which YAML 1.1 read as strings (`1e-6`) or not at all (`.5`).
        ("1e-6", 0.000001), (".5", 0.5), ("2.", 2), ("1.5E+1", 15),
    ])
    func numbersAreReadAsYAML12Does(text: String, seconds: Double) throws {
        #expect(try firstWait(text) == VirtualTime.seconds(seconds))
    }

    /// YAML 1.1's base-60 numbers, binary integers and underscores are strings in YAML 1.2.
    @Test(arguments: ["1:30", "0b101", "1_000", "0x1F.8"])
    func yaml11OnlyNumbersAreStrings(text: String) {
        let error = #expect(throws: ScenarioError.self) { try firstWait(text) }
        #expect(error?.message == "wait must be a number, found a string")
    }

    /// `yes`, `no`, `on` and `off` are strings (YAML 1.1's booleans); only true and false are booleans.
    @Test func onlyTrueAndFalseAreBooleans() throws {
        #expect(try load("name: yes\nsteps: []\n").name == "yes")
        #expect(try load("name: Off\nsteps: []\n").name == "Off")
        #expect(throws: ScenarioError.self) { try load("name: true\nsteps: []\n") }
        #expect(YAMLCoreSchema.value(of: "TRUE", tag: .bool) == .bool(true))
        #expect(YAMLCoreSchema.value(of: "False", tag: .bool) == .bool(false))
    }

    /// Null's four forms and the empty scalar; a quoted scalar is always a string.
    @Test func nullsAndQuotedScalars() throws {
        for null in ["~", "null", "Null", "NULL", ""] {
            #expect(YAMLCoreSchema.resolver.resolveTag(of: .scalar(.init(null))) == .null, "\(null)")
        }
        #expect(try load("name: \"010\"\nsteps: []\n").name == "010")
        #expect(throws: ScenarioError.self) { try firstWait("\"5\"") }
    }

    /// Infinities and NaN are numbers of the core schema, refused by the loader as not finite.
    @Test(arguments: [".inf", "-.Inf", ".NaN"]) func infinitiesAreRefused(text: String) {
        #expect(throws: ScenarioError.self) { try firstWait(text) }
    }

    /// An integer past 64 bits is a number (as JSON readers take it), refused here by the wait's range.
    @Test func aHugeIntegerIsANumber() {
        #expect(YAMLCoreSchema.value(of: "100000000000000000000", tag: .int) == .double(1e20))
        #expect(YAMLCoreSchema.integer("9223372036854775807") == Int64.max)
        #expect(YAMLCoreSchema.integer("9223372036854775808") == nil)
    }
}
