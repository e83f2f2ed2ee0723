import RehearseCore
import RehearseLayout

extension Scenario {
    /// A fresh simulation set up as the scenario says: device, animation model, nodes, constraint
    /// layout and plugins (its steps are not run). `mode` is the clock mode it reports.
    public func makeSimulation(registry: PluginRegistry, mode: ClockMode = .virtual) throws -> Simulation {
        let simulation = Simulation(device: device, animationModel: animationModel, mode: mode)
        for (node, parent) in nodes { try simulation.scene.add(node, to: parent) }
        if let layout {
            let engine = try LayoutEngine(host: simulation, sets: layout.sets)
            simulation.layout = engine
            try engine.activate(layout.active)
        }
        let descriptors = try plugins.map { (id, overrides) throws(PluginInstallError) in
            guard let descriptor = registry[id] else { throw PluginInstallError.unknown(id) }
            return (descriptor, overrides)
        }
        // Every plugin's events first, so plugins may subscribe to each other's whatever their order.
        for (descriptor, _) in descriptors { try simulation.declare(descriptor.eventTypes, by: descriptor.id) }
        for (descriptor, overrides) in descriptors { try simulation.install(descriptor, overrides: overrides) }
        for invariant in invariants { simulation.addInvariant(invariant, owner: "scenario") }
        return simulation
    }
}
