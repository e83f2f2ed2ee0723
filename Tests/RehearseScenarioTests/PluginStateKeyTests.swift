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
}
