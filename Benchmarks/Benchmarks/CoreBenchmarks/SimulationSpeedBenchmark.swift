import Benchmark
import RehearseCore

/// Keeps `count` nodes animating back and forth over 0.5 s, restarting each when it finishes, and
/// optionally reads every animated node's presentation frame on each display-link tick (as the
/// panner's scroll bar reads its scroll view's), through property handles resolved once.
private final class Oscillator: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var count = 10
        var readsEveryFrame = true
    }

    static let id = "oscillator"
    static let summary = "keeps nodes animating"
    static let defaultConfiguration = Configuration()

    var checksum = 0.0

    init(configuration: Configuration, context: PluginContext) throws {
        let nodes = try (0..<configuration.count).map { try context.node("node\($0)") }
        func swing(_ node: NodeHandle) throws {
            guard let frame = context.scene[node]?.frame else { return }
            let target = Rect(x: frame.minX, y: frame.minY < 200 ? 400 : 100, width: frame.size.width, height: frame.size.height)
            try context.animate(AnimationParameters(duration: 0.5, curve: .easeInEaseOut)) {
                try context.set(target.vector, for: .frame, of: node)
            }
        }
        context.on(.animationFinished) { finished in try swing(context.node(finished.target)) }
        if configuration.readsEveryFrame {
            let frames = nodes.map { context.property(.frame, of: $0, presentation: true) }
            context.on(.tick) { [unowned self] _ in
                var sum = 0.0
                for frame in frames { sum += try context.value(of: frame)[1] }
                checksum += sum
            }
        }
        for node in nodes { try swing(node) }
    }
}

/// Simulated seconds per wall second: one scaled iteration is one simulated second of a 100-node
/// scene on a 120 Hz device with 10 animations always running, with and without a subscriber that
/// reads all 10 animated frames on every tick.
func registerSimulationSpeedBenchmarks() {
    for readsEveryFrame in [false, true] {
        registerSimulationSpeedBenchmark(readsEveryFrame: readsEveryFrame)
    }
}

private func registerSimulationSpeedBenchmark(readsEveryFrame: Bool) {
    let reader = readsEveryFrame ? "10 reads per tick" : "no reader"
    Benchmark(
        "Simulation/100 nodes 120 Hz 10 animations \(reader)/simulated second",
        configuration: .init(scalingFactor: .one)
    ) { benchmark in
        let simulation = Simulation(device: .iPhone13Pro)  // 120 Hz
        for index in 0..<100 {
            let frame = Rect(x: Double(index % 10) * 39, y: 100 + Double(index / 10) * 30, width: 39, height: 30)
            try? simulation.scene.add(Node(id: "node\(index)", kind: .view, frame: frame))
        }
        guard let oscillator = try? simulation.install(Oscillator.self, configuration: .init(readsEveryFrame: readsEveryFrame))
        else {
            return
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { simulation.advance(by: VirtualTime(nanoseconds: 1_000_000_000)) }
        benchmark.stopMeasurement()
        blackHole(oscillator.checksum)
    }
}
