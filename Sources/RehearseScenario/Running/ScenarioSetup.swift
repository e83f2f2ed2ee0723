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
            guard let descriptor = plugin(id, in: registry) else { throw PluginInstallError.unknown(id) }
            return try descriptor.configured(overrides)
        }
    }

    /// A fresh simulation set up as the scenario says, with `plugins` decoded beforehand (a set-up
    /// built again and again decodes its configurations once, and its plugins keep in `memo` what
    /// they built the first time). The one way a scenario becomes a simulation: the loader checks
    /// the steps against one, and every run and exploration runs on one.
    public func makeSimulation(
        plugins: [ConfiguredPlugin], mode: ClockMode = .virtual,
        memo: SetupMemo? = nil
    ) throws(ScenarioSetupError) -> Simulation {
        // A build after the first may start from the scene the first one's plugins left, and the
        // events they declared: its nodes added, checked and changed by the plugins' installs,
        // which then take what they built from the memo.
        let simulation =
            memo?.makeSimulation(device: device, animationModel: animationModel, mode: mode)
            ?? Simulation(device: device, animationModel: animationModel, mode: mode)
        if memo?.startedFromInstalledScene != true {
            try addNodes(to: simulation)
            // Every plugin's events first, so plugins may subscribe to each other's whatever their order.
            for (index, plugin) in plugins.enumerated() {
                try attempt(.plugin(index)) { try simulation.declareEvents(of: plugin.descriptor) }
            }
        }
        simulation.setupMemo = memo
        defer { simulation.setupMemo = nil }
        for (index, plugin) in plugins.enumerated() {
            try attempt(.plugin(index)) { try simulation.install(plugin) }
        }
        // A constraint layout of the scenario's own is made again every time, so its scene is too.
        memo?.finishBuild(of: simulation, plugins: plugins.map(\.descriptor.id), sceneKept: layout == nil)
        for invariant in invariants { simulation.addInvariant(invariant, owner: "scenario") }
        return simulation
    }

    /// Adds the scenario's nodes to `simulation`'s scene, checks its zoomed views and lays it out
    /// with its constraint layout, if it has one.
    private func addNodes(to simulation: Simulation) throws(ScenarioSetupError) {
        for (index, (node, parent)) in nodes.enumerated() {
            try attempt(.node(index)) { try simulation.scene.add(node, to: parent) }
        }
        for (index, (node, _)) in nodes.enumerated() where node.viewForZooming != nil {
            try attempt(.node(index)) { try Zooming.checkZoomView(of: node.id, in: simulation.scene) }
        }
        if let layout {
            try attempt(.layout) {
                let engine = try LayoutEngine(target: simulation, sets: layout.sets)
                simulation.layout = engine
                try engine.activate(layout.active)
            }
        }
    }
}

/// Does `work`, a part of a set-up: what it throws is a ``ScenarioSetupError`` naming `part`.
private func attempt(_ part: ScenarioSetupError.Part, _ work: () throws -> Void) throws(ScenarioSetupError) {
    do { try work() } catch { throw ScenarioSetupError(part: part, underlying: error) }
}

/// A scenario that cannot be set up, and the part of it at fault.
public struct ScenarioSetupError: Error, CustomStringConvertible {
    /// A part of a scenario's set-up.
    public enum Part: Sendable, Equatable {
        /// The node at this index of ``Scenario/nodes``.
        case node(Int)
        /// The scene's constraint layout.
        case layout
        /// The plugin at this index of ``Scenario/plugins``.
        case plugin(Int)
    }

    public var part: Part
    /// What the part threw.
    public var underlying: any Error

    public var description: String { "\(underlying)" }
}
