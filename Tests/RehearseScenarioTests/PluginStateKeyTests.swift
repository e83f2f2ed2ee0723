import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import Testing

/// What the docs say of each plugin's state is its declaration (that the declaration is the
/// state is each plugin's conformance test: RehearseTesting's `PluginConformance`).
@Suite struct PluginStateKeyTests {
    /// Scenarios/README's plugin table names every state key, and every value of those that are names.
    @Test(arguments: shippedPlugins.descriptors.map(\.id))
    func theDocumentedStatePathsAreTheDeclaredOnes(plugin: String) throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).appending(path: "../../../Scenarios/README.md").standardized,
            encoding: .utf8)
        // The row of the four-column table "Plugins and their scenes" (the invariants table has two).
        let row = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("| `\(plugin)` |") && $0.split(separator: "|").count == 4 })
        let stateColumn = try #require(row.split(separator: "|").last)
        for key in try #require(shippedPlugins[plugin]).stateKeys {
            #expect(stateColumn.contains("`\(key.name)`"), "\(plugin).\(key.name)")
            for value in key.values where !["true", "false", "", "<redacted>"].contains(value) {
                #expect(stateColumn.contains("`\(value)`"), "\(plugin).\(key.name): \(value)")
            }
        }
    }
}
