import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import Testing

/// What `rehearse plugins --verbose` and the docs say of each plugin's state comes from the
/// plugin's own declaration; these keep the declaration true.
@Suite struct PluginStateKeyTests {
    @Test(arguments: shippedPlugins.descriptors.map(\.id))
    func theDeclaredStateKeysAreTheStatesKeysAndNamedValuesHold(plugin: String) throws {
        let registry = shippedPlugins
        let descriptor = try #require(registry[plugin])
        let setup = try ScenarioLoader(registry: registry).loadSetup(device: nil, plugins: [plugin])
        let simulation = try setup.makeSimulation(registry: registry)
        let state = try #require(simulation.plugin(plugin)?.state)
        #expect(Set(state.keys) == Set(descriptor.stateKeys.map(\.name)))
        for key in descriptor.stateKeys where !key.values.isEmpty {
            let value = try #require(state[key.name])
            let text = if case .string(let string) = value { string } else { value.jsonText }
            #expect(key.values.contains(text), "\(plugin).\(key.name) starts as \(text), not one of \(key.values)")
        }
    }

    /// Scenarios/README's plugin table names every state key, and every value of those that are names.
    @Test(arguments: shippedPlugins.descriptors.map(\.id))
    func theDocumentedStatePathsAreTheDeclaredOnes(plugin: String) throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).appending(path: "../../../Scenarios/README.md").standardized,
                                encoding: .utf8)
        // The row of the four-column table "Plugins and their scenes" (the invariants table has two).
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `\(plugin)` |") && $0.split(separator: "|").count == 4 })
        let stateColumn = try #require(row.split(separator: "|").last)
        for key in try #require(shippedPlugins[plugin]).stateKeys {
            #expect(stateColumn.contains("`\(key.name)`"), "\(plugin).\(key.name)")
            for value in key.values where !["true", "false", "", "<redacted>"].contains(value) {
                #expect(stateColumn.contains("`\(value)`"), "\(plugin).\(key.name): \(value)")
            }
        }
    }
}
