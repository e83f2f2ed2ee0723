import Foundation
import RehearseCore
import RehearsePluginHost
import RehearseScenario

/// A shrunk failure whose file, run as `rehearse run` runs it, does not break its invariant at
/// its time: a plugin answered the same sequence differently (at random, or by what it kept of
/// earlier sequences), so the file would claim a failure that `rehearse run` does not give.
struct FailureNotReproduced: Error, CustomStringConvertible {
    let seed: UInt64
    let invariant: String
    let time: VirtualTime

    var description: String {
        "seed \(seed) broke \(invariant) at \(time) s, but its shrunk scenario, run afresh as rehearse run runs it, did not: "
            + "a plugin answers the same sequence differently (explore needs plugins that answer the same events the same); nothing written"
    }
}

extension Explore {
    /// Throws ``FailureNotReproduced`` unless `shrunk`'s scenario file, run as `rehearse run`
    /// runs it (a new instance of each command plugin, started by `plugins`), breaks the same
    /// invariant at the same time. The file is run from a temporary folder, removed after.
    func checkReproduced(_ shrunk: Explorer.Failure, explorer: Explorer, plugins: CommandPluginHost) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rehearse-explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "failure.yaml")
        try Data(explorer.scenarioText(for: shrunk).utf8).write(to: file)
        var runner = ScenarioRunner(registry: Tool.registry)
        runner.budget = budget.budget
        runner.commandStarter = plugins
        let invariant = "invariant '\(shrunk.invariant.name)' (\(shrunk.invariant.owner))"
        guard case .failed(let failures) = runner.run(file: file.path).outcome,
            failures.contains(where: { $0.subject == invariant && $0.time == shrunk.time })
        else { throw FailureNotReproduced(seed: shrunk.seed, invariant: invariant, time: shrunk.time) }
    }
}
