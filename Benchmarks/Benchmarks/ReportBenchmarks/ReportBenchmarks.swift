import Benchmark
import Foundation
import RehearsePlugins
import RehearseScenario

/// Issue 27: writing the HTML report of every bundled scenario, beside running them plainly, in the
/// same run: `rehearse run Scenarios/` against `rehearse run --report DIR Scenarios/` (one thread;
/// loading each file is part of both). ratios.py prints the ratio (goal: at most 2x).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 2,
        maxDuration: .seconds(10), maxIterations: 200)
    let root = URL(fileURLWithPath: #filePath).appending(path: "../../../..").standardized
    let scenarios =
        FileManager.default.enumerator(atPath: root.appending(path: "Scenarios").path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".yaml") }.sorted()
        .map { root.appending(path: "Scenarios/\($0)").path } ?? []
    let folder = FileManager.default.temporaryDirectory.appending(path: "rehearse-report-benchmark-\(getpid())").path

    Benchmark("Report/bundled scenarios/run") { benchmark in
        let runner = ScenarioRunner(registry: shippedPlugins)
        for _ in benchmark.scaledIterations {
            for file in scenarios { blackHole(runner.run(file: file)) }
        }
    }
    Benchmark("Report/bundled scenarios/run and write the report") { benchmark in
        var runner = ScenarioRunner(registry: shippedPlugins)
        runner.rendering = ScenarioRunner.Rendering(filmstripFrames: 0, picturesEachStep: true)
        for _ in benchmark.scaledIterations {
            let entries = scenarios.map { file in
                var events = HTMLReport.Events()
                let result = runner.run(file: file) { events.add($0) }
                return HTMLReport.Entry(result: result, events: events)
            }
            blackHole(try? HTMLReport.write(entries, to: folder))
        }
    }
}
