import Foundation
import Testing

/// A lint run with the tests (issue 24): no `default:` in a switch over a closed set in Sources or
/// Plugins, so a new case (an event, a step, a node kind) is a compile error wherever it matters
/// instead of falling silently into `default:`. A `default:` is allowed only in the switches
/// listed here, over values that have no closed list of cases (strings, numbers, C values,
/// another package's errors), or where a pattern with `where` or a payload makes the rest one
/// refusal, or where a function acts on a few built-in events and passes every other on as it is
/// (so that a new built-in event is written in the few files CONTRIBUTING lists, not in every
/// switch over events); a new one must be added here, with its reason, by whoever writes it.
@Suite struct OpenSetDefaultTests {
    /// `FILE: switch SUBJECT` for every switch that may have a `default:`, with why.
    static let allowed: [String: String] = [
        "AccessibilityExport+Accessible.swift: switch interface": "AT-SPI interface names (strings)",
        "AccessibilityExport+Accessible.swift: switch request.member": "AT-SPI member names (strings)",
        "AccessibilityExport+Actions.swift: switch request.member": "AT-SPI member names (strings)",
        "AccessibilityExport+Answers.swift: switch interface": "AT-SPI interface names (strings)",
        "AccessibilityExport+Answers.swift: switch path": "object paths (strings)",
        "AccessibilityExport+Text.swift: switch request.member": "AT-SPI member names (strings)",
        "AccessiblePaths.swift: switch byte": "bytes of an object path",
        "Condition.swift: switch text": "characters of a condition",
        "Device+Fields.swift: switch value": "a mapping, a pair (where), or refused",
        "ExploreStepText.swift: switch event": "the events a step of their own injects: every other is written as emit",
        "FieldCodec.swift: switch error": "Foundation's DecodingError (@unknown default)",
        "FieldConvertible.swift: switch value": "a whole number (where), or refused",
        "FieldJSON.swift: switch bytes[index]": "bytes to escape",
        "FieldMatching.swift: switch (self, actual)": "pairs of values: the rest compare as scalars",
        "FieldShapeProbe.swift: switch type": "any Decodable type",
        "FieldReader.swift: switch value": "a mapping, a list of the right length (where), or refused",
        "FieldText.swift: switch fields[first]": "absent, a mapping, or refused",
        "FieldText.swift: switch text": "strings the command line reads as values",
        "FieldValueDecoder.swift: switch type": "any Decodable type",
        "FieldValueDecoder.swift: switch value": "a whole number (where), or refused",
        "FieldValueEncoder.swift: switch value": "any Encodable value",
        "InvariantReader.swift: switch (entries[\"check\"], entries[\"finite\"])": "exactly one of two keys, or refused",
        "MessageFuzzing.swift: switch (argument.type, method)": "D-Bus signatures (strings)",
        "MessageReader.swift: switch type": "D-Bus type codes",
        "MessageWriter.swift: switch signature.utf8.first": "D-Bus type codes",
        "MessageWriter.swift: switch type": "D-Bus type codes",
        "NamePattern.swift: switch scalar": "characters of a --filter pattern: the rest stand for themselves",
        "PeerMatchRules.swift: switch key": "match rule keys (strings)",
        "PluginHostStandardMethods.swift: switch (interface, member)":
            "D-Bus interface and member names (strings): the rest are not the standard methods",
        "PeerServer+BusMethods.swift: switch (member, signature)": "D-Bus member names and signatures",
        "PropertyAnimationReader.swift: switch kind": "a curve's form, a key checked against ScenarioSyntax.curveForms",
        "ScenarioLoader.swift: switch error": "any error a plugin's installation throws",
        "ScenarioLoader.swift: switch try configuration.fieldValue(\"the configuration of '\\(id)'\")":
            "a mapping, null, or refused",
        "ScenarioSchema.swift: switch name": "node property names (strings)",
        "SessionSetup.swift: switch fields[\"share\"]": "absent, a boolean, or refused",
        "Simulation.swift: switch event":
            "prepare(_:): the events changed before they are published; every other is published as it is (check(_:) lists every event)",
        "SimulationPathWriting.swift: switch parts[1]": "path components (strings)",
        "SimulationPaths.swift: switch name": "path components (strings)",
        "SimulationPaths.swift: switch parts.dropFirst().first": "path components (strings)",
        "SimulatorClient.swift: switch dbus_message_get_type(message)": "a C int",
        "SimulatorObject.swift: switch (member, signature)": "D-Bus member names and signatures",
        "SimulatorObject.swift: switch interface": "D-Bus interface names",
        "TerminalText.swift: switch scalar.value": "characters to escape",
        "Variable.swift: switch priority": "a number",
        "ViewerCommand.swift: switch message.type": "the page's command names (strings)",
        "ViewerCommand.swift: switch error": "Foundation's DecodingError (@unknown default)",
        "XMLText.swift: switch utf8[index]": "bytes to escape",
        "YAMLCoreSchema.swift: switch tag": "YAML tags (Tag.Name is a string)",
        "YAMLDocument.swift: switch character": "characters of a file",
        "YAMLDocument.swift: switch error": "Yams' errors (another package's enum)",
        "YAMLFlow.swift: switch scalar.value": "characters written as they are unless the loader refuses them",
    ]

    /// The package's Swift sources outside Tests, by path.
    private static func sources() throws -> [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ["Sources", "Plugins"].flatMap { folder -> [URL] in
            let base = root.appending(path: folder)
            let paths = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            return paths.filter { $0.hasSuffix(".swift") }.map { base.appending(path: $0) }
        }
    }

    /// `FILE: switch SUBJECT` of the switch each `default:` belongs to (the nearest `switch` above it).
    private static func switchesWithDefault() throws -> [String] {
        var found: [String] = []
        for file in try sources() {
            var lastSwitch = "no switch"
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if let range = code.range(of: "switch "), !code.hasPrefix("//") {
                    lastSwitch = String(code[range.lowerBound...]).trimmingCharacters(in: CharacterSet(charactersIn: " {"))
                }
                if code.hasPrefix("default:") || code.hasPrefix("@unknown default:") {
                    found.append("\(file.lastPathComponent): \(lastSwitch)")
                }
            }
        }
        return found
    }

    @Test func everyDefaultIsInASwitchOverAnOpenSet() throws {
        let found = try Self.switchesWithDefault()
        #expect(found.count >= 30, "the scan found \(found.count) defaults: is it reading Sources?")
        for place in found where Self.allowed[place] == nil {
            Issue.record("a default: in \(place): list every case instead, or add it to OpenSetDefaultTests.allowed with why")
        }
        for listed in Self.allowed.keys where !found.contains(listed) {
            Issue.record("\(listed) is listed but has no default: any more; take it off the list")
        }
    }
}
