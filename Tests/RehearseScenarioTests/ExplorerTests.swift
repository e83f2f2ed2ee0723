import Foundation
import RehearseCore
import Testing
@testable import RehearseScenario

/// A plugin with a bug planted behind one 5-action interleaving: with the network off, a field is
/// focused, the screen rotates while the keyboard is still rising, the keyboard arrives, and then
/// any tap moves `box` off screen. Any other order, or a missing step, does nothing.
private final class PlantedBug: Plugin {
    struct Configuration: Codable, Sendable, Equatable {}
    static let id = "planted-bug"
    static let summary = "misbehaves after one interleaving (tests only)"
    static let defaultConfiguration = Configuration()

    private var offline = false
    private var rotatedWhileRising = false

    init(configuration: Configuration, context: PluginContext) {
        context.on(.network) { [unowned self] change in offline = !change.online }
        context.on(.orientation) { [unowned self] _ in
            rotatedWhileRising = offline && context.keyboard.isVisible && context.keyboard.isMoving
        }
        context.on(.tap) { [unowned self] _ in
            guard rotatedWhileRising, !context.keyboard.isMoving else { return }
            try context.set(Rect(x: -50, y: 0, width: 10, height: 10).vector, for: .frame, of: "box")
        }
    }
}

private let registry = PluginRegistry([PluginDescriptor(PlantedBug.self)])

private let plantedScenario = """
    name: a planted bug
    scene:
      nodes:
        - {id: box, kind: view, frame: [0, 0, 10, 10]}
        - {id: field, kind: textField, frame: [20, 260, 280, 30]}
    plugins: [planted-bug]
    invariants:
      - {name: box on screen, check: box.frame.x >= 0}
    steps: []
    """

@Suite struct ExplorerTests {
    private func explorer() throws -> Explorer {
        try Explorer(scenario: try ScenarioLoader(registry: registry).load(data: Data(plantedScenario.utf8), file: "planted.yaml"),
                 registry: registry)
    }

    /// Found within the default budget, shrunk to exactly the five actions, and the written file
    /// fails under `rehearse run`'s runner with the same invariant.
    @Test func aPlantedBugIsFoundShrunkToItsFiveActionsAndReplayed() throws {
        let explorer = try explorer()
        let failure = try #require(try explorer.explore(seeds: 1...UInt64(Explorer.defaultRuns)))
        #expect(failure.invariant.name == "box on screen")
        let shrunk = try explorer.shrink(failure)
        let kinds = shrunk.actions.map { action -> String in
            switch action {
            case .inject(let event): event.name
            case .wait: "wait"
            }
        }
        // Network off and focus may come in either order; the other three cannot.
        #expect(kinds.count == 5 && Set(kinds.prefix(2)) == ["network", "focus"], "\(shrunk.actions)")
        #expect(kinds.suffix(3) == ["orientation", "wait", "tap"], "\(shrunk.actions)")
        let text = try explorer.scenarioText(for: shrunk)
        let replay = try ScenarioLoader(registry: registry).load(data: Data(text.utf8), file: "shrunk.yaml")
        let result = ScenarioRunner(registry: registry).run(replay)
        guard case .failed(let failures) = result.outcome else {
            Issue.record("the shrunk file does not fail:\n\(text)")
            return
        }
        #expect(failures.map(\.subject) == ["invariant 'box on screen' (scenario)"])
        #expect(result.simulatedTime == shrunk.time)
    }

    /// The same seed gives the same sequence; a sequence that breaks nothing gives no failure.
    @Test func seedsAreDeterministic() throws {
        let explorer = try explorer()
        #expect(explorer.sequence(seed: 42) == explorer.sequence(seed: 42))
        #expect(explorer.sequence(seed: 42) != explorer.sequence(seed: 43))
        #expect(try explorer.run([.wait(VirtualTime.seconds(1)!)]) == nil)
    }
}
