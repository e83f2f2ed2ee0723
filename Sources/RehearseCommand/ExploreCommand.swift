import ArgumentParser
import Foundation
import RehearseCore
import RehearseScenario

/// `rehearse explore SCENARIO`: random interaction sequences on the scenario's set-up until an
/// invariant breaks; the failure is shrunk and written as a scenario file.
struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run seeded random action sequences on a scenario's set-up, checking every invariant; shrink a failure to a scenario file.",
        discussion: """
            The actions are taps on the scene's nodes, focus, text and return on its fields, resign, the four \
            orientations, the network on and off, tilts and waits. Exit status: 0 when no invariant broke, 1 when one \
            did (the shrunk scenario is written to --out and its path printed), 2 for invalid input or usage.
            """)

    @Argument(help: "The scenario whose set-up (device, scene, plugins, invariants) is explored; its steps are not run.")
    var scenario: String

    @Option(help: "The first sequence's seed; sequence i uses seed + i. A failure prints its seed: --seed S --runs 1 reruns it.")
    var seed: UInt64 = 1

    @Option(help: "How many sequences to run (default: the file's explore: {runs}, or 2000).")
    var runs: Int?

    @Option(help: "Actions per sequence (default: the file's explore: {length}, or 20).")
    var length: Int?

    @Option(help: "Where to write a failure's shrunk scenario (created if needed).")
    var out: String = "explore-failures"

    @Option(help: ArgumentHelp("Run only part K of N of the seeds (as `run --shard`; read from the same variables).",
                               valueName: "K/N"))
    var shard: Shard?

    func validate() throws {
        guard (1...Explorer.maximumRuns).contains(runs ?? 1) else { throw ValidationError("--runs must be 1 to \(Explorer.maximumRuns)") }
        guard (1...Explorer.maximumLength).contains(length ?? 1) else {
            throw ValidationError("--length must be 1 to \(Explorer.maximumLength)")
        }
    }

    func run() throws {
        let loaded: Scenario
        do {
            loaded = try ScenarioLoader(registry: Tool.registry).load(file: scenario)
        } catch {
            print(TerminalText.escape("\(error)"))
            throw ExitCode(2)
        }
        var explorer = try Explorer(scenario: loaded, registry: Tool.registry)
        if let length { explorer.length = length }
        let runs = runs ?? loaded.explore?.runs ?? Explorer.defaultRuns
        guard seed <= UInt64.max - UInt64(runs) else { throw ValidationError("--seed plus the runs passes 2^64 - 1") }
        let part = try shard ?? Shard.fromEnvironment(ProcessInfo.processInfo.environment) ?? Shard(index: 1, count: 1)!
        let seeds = stride(from: seed &+ UInt64(part.index - 1), to: seed &+ UInt64(runs), by: part.count)
        print("exploring \(scenario): \(seeds.underestimatedCount) sequences of \(explorer.length) actions, seeds from \(seed)"
            + (part.count > 1 ? ", shard \(part)" : ""))
        let clock = ContinuousClock(), start = clock.now
        let showsProgress = isatty(STDERR_FILENO) == 1
        let failure = try explorer.explore(seeds: seeds) { done in
            if showsProgress, done % 100 == 0 {
                FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)] \(Self.rate(done, since: start, clock)) sequences/s".utf8))
            }
            return true
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        guard let failure else {
            let count = seeds.underestimatedCount
            print("no invariant broke in \(count) sequences (\(Self.rate(count, since: start, clock)) sequences/s)")
            return
        }
        try report(failure, explorer: explorer)
        throw ExitCode(1)
    }

    private func report(_ failure: Explorer.Failure, explorer: Explorer) throws {
        let invariant = failure.invariant
        print(TerminalText.escape("invariant '\(invariant.name)' (\(invariant.owner)) broke in seed \(failure.seed) at "
            + "\(failure.time.seconds.shortDescription) s: \(invariant.actual), expected \(invariant.expected)"))
        let shrunk = try explorer.shrink(failure)
        print("shrunk from \(failure.actions.count) to \(shrunk.actions.count) actions:")
        for action in shrunk.actions { print(TerminalText.escape("  \(action)")) }
        let folder = URL(fileURLWithPath: out)
        let base = URL(fileURLWithPath: scenario).deletingPathExtension().lastPathComponent
        let safeBase = String(base.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0)) ? Character($0) : "_" })
        let file = folder.appendingPathComponent("\(safeBase)-seed-\(failure.seed).yaml")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try explorer.scenarioText(for: shrunk).utf8).write(to: file, options: .atomic)
        } catch {
            throw ValidationError("cannot write the shrunk scenario into \(out): \(error.localizedDescription)")
        }
        print("written: \(file.path) (rehearse run \(file.path) reproduces it)")
    }

    private static func rate(_ count: Int, since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> String {
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? String(Int(Double(count) / seconds)) : "-"
    }
}
