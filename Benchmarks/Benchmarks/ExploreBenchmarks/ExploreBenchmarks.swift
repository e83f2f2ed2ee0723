import Benchmark
import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario

/// Exploration speed: one iteration runs one random 20-action sequence (a new seed each time) on a
/// simulation of a bundled scenario's set-up built as an exploration's worker builds it (from what
/// its first build kept, ``SetupMemo``), invariants checked after every event; and one finds and
/// shrinks a broken invariant.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(5),
        maxIterations: 20_000
    )
    registerSequenceBenchmark("gateway", file: "gateway/login-logout.yaml")
    registerSequenceBenchmark("login flow", file: "login-flow/login-flow.yaml")
    // Issue 26: the gateway's set-up with swipes and long presses in the alphabet too.
    registerSequenceBenchmark(
        "gateway with gestures", file: "gateway/login-logout.yaml",
        adding: "explore: {actions: {swipe: 1, long-press: 1}}")
    Benchmark(
        "Explore/shrink/panner tilted past an invariant",
        configuration: .init(maxDuration: .seconds(5), maxIterations: 200)
    ) { benchmark in
        let yaml = """
            name: the photo never pans far
            plugins: [panner]
            invariants: [{name: near the middle, check: scroll.contentOffset.x <= 1100}]
            steps: []
            """
        guard let scenario = try? ScenarioLoader(registry: shippedPlugins).load(data: Data(yaml.utf8), file: "far-pan.yaml"),
            let explorer = try? Explorer(scenario: scenario, registry: shippedPlugins)
        else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard let failure = try? explorer.explore(seeds: 1...2_000).failure else { continue }
            blackHole(try? explorer.shrink(failure))
        }
    }
}

/// 200 sequences of the login flow one after the other, and the same 200 on two threads
/// (`explore --jobs 2`), side by side: their ratio is what a second core buys.
private func registerJobsBenchmarks(_ explorer: Explorer) {
    for jobs in [1, 2] {
        Benchmark(
            "Explore/login flow/200 sequences, jobs \(jobs)", configuration: .init(maxDuration: .seconds(10), maxIterations: 50)
        ) { benchmark in
            for iteration in benchmark.scaledIterations {
                let first = UInt64(iteration * 200 + 1)
                blackHole(try? explorer.explore(seeds: first...(first + 199), jobs: jobs))
            }
        }
    }
}

/// A sequence, the set-up alone (as a worker builds it, and fresh) and the set-up without plugins,
/// for the bundled scenario `file` with the line `adding` (if any) appended to it.
private func registerSequenceBenchmark(_ name: String, file: String, adding: String? = nil) {
    // Loading the file is set-up, not what is measured: once, for the three benchmarks.
    let path = URL(fileURLWithPath: #filePath).appending(path: "../../../../Scenarios/\(file)").standardized.path
    guard var text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
    if let adding { text += "\n" + adding + "\n" }
    guard let scenario = try? ScenarioLoader(registry: shippedPlugins).load(data: Data(text.utf8), file: path),
        let plugins = try? scenario.configuredPlugins(registry: shippedPlugins),
        let explorer = try? Explorer(scenario: scenario, registry: shippedPlugins)
    else { return }
    if name == "login flow" { registerJobsBenchmarks(explorer) }
    // The closure runs once per measured iteration: the worker's memo is the benchmark's set-up state.
    Benchmark(
        "Explore/\(name)/20-action sequence",
        closure: { benchmark, memo in
            var seed: UInt64 = 0
            for _ in benchmark.scaledIterations {
                seed += 1
                blackHole(try? explorer.run(explorer.sequence(seed: seed), seed: seed, memo: memo))
            }
        }, setup: { SetupMemo() })
    Benchmark(
        "Explore/\(name)/set-up alone",
        closure: { benchmark, memo in
            for _ in benchmark.scaledIterations {
                blackHole(try? scenario.makeSimulation(plugins: plugins, memo: memo))
            }
        }, setup: { SetupMemo() })
    Benchmark("Explore/\(name)/set-up alone, fresh") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? scenario.makeSimulation(plugins: plugins))
        }
    }
    Benchmark("Explore/\(name)/set-up without plugins") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? scenario.makeSimulation(plugins: []))
        }
    }
}
