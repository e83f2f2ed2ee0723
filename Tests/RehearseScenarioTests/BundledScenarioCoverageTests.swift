import Foundation
import RehearseCore
import RehearsePlugins
import Testing

@testable import RehearseScenario

/// The bundled scenarios are what the schema is checked against (`SchemaTests`: every bundled file
/// valid, and 3,000 mutants of them judged alike by the loader and the schema), so a step or an
/// event none of them uses is one that check never sees.
@Suite struct BundledScenarioCoverageTests {
    /// Built-in events no bundled scenario injects or expects, each with why.
    static let eventsNoScenarioUses: [BuiltinEvent: String] = [
        .pluginFailed: "sent only when a plugin throws, and no shipped plugin does (PluginTests throws on purpose)",
        .invariantFailed: "sent only when an invariant stops holding, which fails the scenario that shows it "
            + "(InvariantTests and the malformed corpus make it happen)",
    ]

    static let scenariosFolder = URL(fileURLWithPath: #filePath).appending(path: "../../../Scenarios").standardized

    static func bundledFiles() throws -> [URL] {
        let files =
            FileManager.default.enumerator(at: scenariosFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "yaml" } ?? []
        return files.sorted { $0.path < $1.path }
    }

    @Test func everyStepIsUsedByABundledScenario() throws {
        var used: Set<String> = []
        for file in try Self.bundledFiles() {
            let document = try YAMLDocument.parse(try Data(contentsOf: file), file: file.path).fieldValue("the file")
            guard case .dictionary(let top)? = document, case .array(let steps)? = top["steps"] else { continue }
            for step in steps {
                if case .dictionary(let written) = step { used.formUnion(written.keys) }
                if case .string(let bare) = step { used.insert(bare) }  // `- settle`
            }
        }
        let unused = StepParser.stepNames.filter { !used.contains($0) }
        #expect(unused.isEmpty, "steps no bundled scenario uses: \(unused.joined(separator: ", "))")
    }

    @Test func everyBuiltinEventIsInjectedOrExpectedByABundledScenarioOrListed() throws {
        let loader = ScenarioLoader(registry: shippedPlugins)
        var used: Set<String> = []
        for file in try Self.bundledFiles() {
            let scenario = try loader.load(file: file.path)
            used.formUnion(scenario.steps.flatMap { Self.eventNames(of: $0.action) })
            used.formUnion(scenario.explore?.events?.map(\.name) ?? [])
        }
        let unused = BuiltinEvent.allCases.filter { !used.contains($0.name) && Self.eventsNoScenarioUses[$0] == nil }
        #expect(
            unused.isEmpty,
            "built-in events no bundled scenario injects or expects: \(unused.map(\.name).joined(separator: ", "))")
        let listedButUsed = Self.eventsNoScenarioUses.keys.filter { used.contains($0.name) }
        #expect(listedButUsed.isEmpty, "listed as unused but used: \(listedButUsed.map(\.name))")
    }

    /// The events a step injects or names in an expectation.
    static func eventNames(of action: Step.Action) -> [String] {
        switch action {
        case .inject(let event), .schedule(let event, _): [event.name]
        case .injectQueried(let queried): [queried.event(target: "").name]
        case .motionStream: [BuiltinEvent.motion.name]
        case .touchStream(let stream): stream.events.map { Event($0.phase, $0.touch).name }
        case .scrollUntilVisible: ["touch.began", "touch.moved", "touch.ended"]
        case .expectEvent(let expectation), .expectNoEvent(let expectation): [expectation.name]
        case .wait, .advance, .keyboardShow, .keyboardHide, .expect, .set, .animate, .activate, .snapshot, .expectPicture,
            .expectVisible, .settle, .waitUntil, .expectAccessible:
            []
        }
    }
}
