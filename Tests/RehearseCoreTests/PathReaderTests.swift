import Testing

@testable import RehearseCore

@Suite struct PathReaderTests {
    /// A box moving down over a second, beside the paths a reader resolves and those it reads as
    /// `value(at:)` does.
    private func simulation() throws -> Simulation {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 10, y: 0, width: 100, height: 40))
        try simulation.animator.animate(AnimationParameters(duration: 1, curve: .linear), owner: "test") {
            try simulation.animator.set(Rect(x: 10, y: 200, width: 100, height: 40).vector, for: .frame, of: "box")
        }
        return simulation
    }

    private static let paths = [
        "box.frame.y", "box.presentation.frame.y", "box.presentation.frame.maxY", "box.frame.maxX", "box.frame",
        "box.presentation.alpha", "box.alpha", "box.text", "box.frame.z", "box.frame.count", "box..frame", "box.presentation",
        "time", "keyboard.frame.y", "safeArea.top", "nothing.frame.y", "box",
    ]

    @Test func readsWhatValueAtReadsAsTheSceneChanges() throws {
        let simulation = try simulation()
        let readers = Self.paths.map { simulation.reader(for: ValuePath($0)) }
        func expectSame() {
            for reader in readers {
                let read = Result { () throws(PathError) in try simulation.value(of: reader) }
                let expected = Result { () throws(PathError) in try simulation.value(at: reader.path) }
                #expect(read == expected, "\(reader.path)")
            }
        }
        expectSame()
        simulation.advance(seconds: 0.25)
        expectSame()
        // Removed, the node is read as value(at:) reads a name no node has; added again, the new one is read.
        try simulation.scene.remove("box")
        expectSame()
        try simulation.addNode("box", .label, Rect(x: 0, y: 5, width: 1, height: 1))
        expectSame()
        #expect(try simulation.value(of: readers[0]) == .double(5))
    }
}
