import RehearseTesting
import Testing

@testable import RehearseCore

/// Slides a field's frame whenever the keyboard shows and fades a label on every motion sample.
private final class Reactor: Plugin {
    struct Configuration: Codable, Sendable, Equatable {}

    struct Moved: PluginEvent, Codable {
        static let name = "reactor.moved"
        static let fieldSummary = "y"
        static let summary = "after each keyboard move"
        var y: Double
    }

    static let id = "reactor"
    static let summary = "reacts to the keyboard and to motion"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [Moved.self]

    init(configuration: Configuration, context: PluginContext) throws {
        func slide(up: Bool) throws {
            let y = up ? 100.0 : 300.0
            try context.animate(AnimationParameters(duration: 0.3, curve: .easeOut)) {
                try context.set(Rect(x: 20, y: y, width: 280, height: 30).vector, for: .frame, of: "field0")
            }
            try context.emit(Moved(y: y))
        }
        context.on(.keyboardWillShow) { _ in try slide(up: true) }
        context.on(.keyboardWillHide) { _ in try slide(up: false) }
        let label = try context.node("label")
        context.on(.motion) { sample in
            let alpha = min(max(0.5 + sample.rotationRate.y / 4, 0), 1)
            try context.animate(AnimationParameters(duration: 0.2, options: .beginFromCurrentState)) {
                try context.set(SIMD4(alpha, 0, 0, 0), for: .alpha, of: label)
            }
        }
    }
}

@Suite struct DeterminismTests {
    /// Runs a seeded mix of taps, focus moves, typing, returns, motion, rotation and network
    /// changes for 200 simulated seconds and returns the JSON Lines trace.
    private func run(seed: UInt64, model: AnimationModel) throws -> [String] {
        let simulation = Simulation(animationModel: model)
        try simulation.scene.add(Node(id: "label", kind: .label, frame: Rect(x: 20, y: 40, width: 280, height: 30)))
        for index in 0..<5 {
            var field = Node(
                id: "field\(index)", kind: .textField,
                frame: Rect(x: 20, y: 300 + Double(index) * 40, width: 280, height: 30))
            field.enablesReturnKeyAutomatically = index % 2 == 0
            field.secure = index == 4
            try simulation.scene.add(field)
        }
        try simulation.install(PluginDescriptor(Reactor.self))
        var trace: [String] = []
        simulation.bus.subscribe(.all, owner: "trace") { trace.append($0.traceLine) }
        var random = SeededGenerator(seed: seed)
        for step in 0..<4000 {
            let field = "field\(Int.random(in: 0..<5, using: &random))"
            let event: Event =
                switch Int.random(in: 0..<8, using: &random) {
                case 0:
                    .tap(
                        Tap(
                            point: Point(
                                x: Double.random(in: 0..<320, using: &random),
                                y: Double.random(in: 0..<568, using: &random))))
                case 1: .focus(NodeTarget(target: field))
                case 2: .text(TextInput(target: field, text: field == "field4" ? "secret\(step)" : "s\(step)"))
                case 3: .returnKey(NodeTarget(target: field))
                case 4: .resign(ResignRequest())
                case 5: .orientation(OrientationChange(value: Orientation.allCases.randomElement(using: &random) ?? .portrait))
                case 6: .network(NetworkChange(online: Bool.random(using: &random)))
                default: .motion(MotionSample(rotationRate: Vector3(x: 0, y: Double.random(in: -2...2, using: &random), z: 0)))
                }
            try simulation.inject(event)
            simulation.advance(by: VirtualTime(nanoseconds: Int64.random(in: 0...100_000_000, using: &random)))
        }
        simulation.advance(seconds: 1)
        return trace
    }

    @Test(arguments: AnimationModel.allCases)
    func theSameRunTwiceGivesTheSameTraceByteForByte(model: AnimationModel) throws {
        let first = try run(seed: 42, model: model)
        let second = try run(seed: 42, model: model)
        #expect(first.count >= 10_000)
        #expect(first == second)
        #expect(!first.contains { $0.contains("secret") }, "text typed into the secure field leaked")
        let names = Set(
            first.compactMap { line -> String? in
                guard let start = line.range(of: "\"name\":\"")?.upperBound else { return nil }
                return String(line[start...].prefix { $0 != "\"" })
            })
        let expected: Set<String> = [
            "tick", "keyboard.willShow", "keyboard.didHide", "animation.finished", "reactor.moved", "tap",
        ]
        #expect(names.isSuperset(of: expected))
        let different = try run(seed: 43, model: model)
        #expect(different != first)
    }
}
