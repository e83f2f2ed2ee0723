import RehearseCore
import RehearseLayout

extension Scenario {
    /// A fresh simulation set up as the scenario says: device, animation model, nodes, constraint
    /// layout and plugins (its steps are not run). `mode` is the clock mode it reports.
    public func makeSimulation(registry: PluginRegistry, mode: ClockMode = .virtual) throws -> Simulation {
        try makeSimulation(plugins: configuredPlugins(registry: registry), mode: mode)
    }

    /// The scenario's plugins with their configurations decoded, for ``makeSimulation(plugins:mode:)``.
    public func configuredPlugins(registry: PluginRegistry) throws -> [ConfiguredPlugin] {
        try plugins.map { (id, overrides) in
            guard let descriptor = registry[id] else { throw PluginInstallError.unknown(id) }
            return try descriptor.configured(overrides)
        }
    }

    /// A fresh simulation set up as the scenario says, with `plugins` decoded beforehand (a set-up
    /// built again and again decodes its configurations once).
    public func makeSimulation(plugins: [ConfiguredPlugin], mode: ClockMode = .virtual) throws -> Simulation {
        let simulation = Simulation(device: device, animationModel: animationModel, mode: mode)
        for (node, parent) in nodes { try simulation.scene.add(node, to: parent) }
        if let layout {
            let engine = try LayoutEngine(host: simulation, sets: layout.sets)
            simulation.layout = engine
            try engine.activate(layout.active)
        }
        // Every plugin's events first, so plugins may subscribe to each other's whatever their order.
        for plugin in plugins { try simulation.declare(plugin.descriptor.eventTypes, by: plugin.descriptor.id) }
        for plugin in plugins { try simulation.install(plugin) }
        for invariant in invariants { simulation.addInvariant(invariant, owner: "scenario") }
        return simulation
    }
}
