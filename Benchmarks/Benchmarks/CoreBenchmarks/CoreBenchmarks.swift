import Benchmark
import Foundation
import OpenCombine
import RehearseCore

/// Every benchmark here is one of a group run side by side in the same process, so that
/// `Benchmarks/ratios.py` can report each Rehearse figure as a ratio to its baseline.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    for subscribers in [1, 8] {
        registerDeliveryBenchmarks(subscribers: subscribers)
    }
    registerSimulationSpeedBenchmarks()
    registerTouchBenchmarks()
    registerZoomBenchmarks()
}
