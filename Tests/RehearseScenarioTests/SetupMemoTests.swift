import Foundation
import RehearseCore
import RehearsePlugins
import Testing

@testable import RehearseScenario

/// Issue 40: a set-up built again and again (an exploration's worker's) starts each build after
/// the first from the scene the first build's plugins left, when every plugin keeps its install.
struct SetupMemoTests {
    /// What a simulation is right after its set-up: every node (in drawing order, each with every
    /// property), the status bar, each plugin's state, the invariants, the layout's active sets,
    /// the events declared and the subscriptions to each.
    private struct Built: Equatable {
        var nodes: [Node?]
        var statusBarHidden: Bool
        var states: [Fields]
        var invariants: [String]
        var activeSets: [String]?
        var vocabulary: [EventDescription]
        var subscriptions: [Int]

        init(_ simulation: Simulation) {
            nodes = simulation.scene.allIDs.map { simulation.scene[$0] }
            statusBarHidden = simulation.scene.statusBarHidden
            states = simulation.pluginIDs.compactMap { simulation.plugin($0)?.state }
            invariants = simulation.invariants.map { "\($0.owner): \($0.name)" }
            activeSets = simulation.layout?.activeConstraintSets
            vocabulary = simulation.eventVocabulary
            subscriptions = vocabulary.map { simulation.bus.subscriberCount(for: $0.name) }
        }
    }

    private func scenario(_ file: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).appending(path: "../../../Scenarios/\(file)").standardized
        return try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: url), file: url.path)
    }

    /// The login flow (the login animator lays the form out, the gateway takes its children out
    /// and embeds one) and the gateway alone: the second build and the next start from the
    /// installed scene and are the fresh set-up, node for node; what one build changes (a node,
    /// the layout) reaches no other.
    @Test(arguments: ["login-flow/login-flow.yaml", "gateway/login-logout.yaml"])
    func buildsAfterTheFirstStartFromTheSceneItLeftAndAreTheFreshSetUp(file: String) throws {
        let scenario = try scenario(file)
        let plugins = try scenario.configuredPlugins(registry: shippedPlugins)
        let fresh = Built(try scenario.makeSimulation(plugins: plugins))
        let memo = SetupMemo()
        let first = try scenario.makeSimulation(plugins: plugins, memo: memo)
        #expect(!memo.startedFromInstalledScene)
        #expect(Built(first) == fresh)
        let second = try scenario.makeSimulation(plugins: plugins, memo: memo)
        #expect(memo.startedFromInstalledScene)
        #expect(Built(second) == fresh)
        // Changed in place: the kept scene and layout are copies, not shared.
        try second.scene.update("login") { $0.alpha = 0.5 }
        try second.scene.add(Node(id: "added", kind: .view, frame: .zero))
        try second.layout?.activate(["base", "shown"])
        let third = try scenario.makeSimulation(plugins: plugins, memo: memo)
        #expect(memo.startedFromInstalledScene)
        #expect(Built(third) == fresh)
        let freshAgain = try scenario.makeSimulation(plugins: plugins)
        if let layout = third.layout, let freshLayout = freshAgain.layout {
            try layout.activate(["base", "shown"])
            try freshLayout.activate(["base", "shown"])
            #expect(Built(third) == Built(freshAgain))
        }
    }

    /// A set-up one of whose plugins keeps nothing of its install (the panner), or whose scene has
    /// a constraint layout of the scenario's own, is built from its nodes every time.
    @Test(arguments: ["panner/on-iphone-8.yaml", "core/constraint-layout.yaml"])
    func aSetUpWhosePartsAreNotAllKeptIsBuiltFromItsNodesEveryTime(file: String) throws {
        let scenario = try scenario(file)
        let plugins = try scenario.configuredPlugins(registry: shippedPlugins)
        let memo = SetupMemo()
        for _ in 1...3 {
            let built = try scenario.makeSimulation(plugins: plugins, memo: memo)
            #expect(!memo.startedFromInstalledScene)
            #expect(Built(built) == Built(try scenario.makeSimulation(plugins: plugins)))
        }
    }
}
