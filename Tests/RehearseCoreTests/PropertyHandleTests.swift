import Testing

@testable import RehearseCore

@Suite struct PropertyHandleTests {
    /// A box moving down and fading, and a card, with a context to resolve handles in (which holds
    /// the simulation unowned: each test keeps it alive to its end).
    private func simulation() throws -> (Simulation, PluginContext) {
        let simulation = Simulation()
        try simulation.addNode("box", .view, Rect(x: 10, y: 0, width: 100, height: 40))
        try simulation.addNode("card", .view, Rect(x: 0, y: 300, width: 320, height: 200))
        try simulation.animator.animate(AnimationParameters(duration: 1, curve: .easeInEaseOut), owner: "test") {
            try simulation.animator.set(Rect(x: 10, y: 200, width: 100, height: 40).vector, for: .frame, of: "box")
            try simulation.animator.set(SIMD4(0.5, 0, 0, 0), for: .alpha, of: "box")
        }
        return (simulation, PluginContext(pluginID: "reader", simulation: simulation))
    }

    private static let paths = [
        "box.presentation.frame.y", "box.frame.y", "box.presentation.frame.maxX", "box.presentation.frame.maxY",
        "box.presentation.alpha", "box.alpha", "box.presentation.frame", "card.presentation.frame.height",
    ]

    /// Every handle's number is what the path reads, and a whole frame's vector is its presentation value.
    private func expectHandlesReadThePaths(_ simulation: Simulation, _ context: PluginContext, _ handles: [PropertyHandle]) throws
    {
        for (path, handle) in zip(Self.paths, handles) {
            let read = try context.value(of: handle)
            if case .dictionary = try simulation.value(at: path) {
                #expect(
                    read == simulation.animator.presentationValue(of: handle.property, of: simulation.scene.id(of: handle)),
                    "\(path)")
            } else {
                #expect(try context.number(of: handle) == simulation.value(at: path)?.number, "\(path)")
            }
        }
    }

    @Test func aHandleReadsWhatItsPathReadsAsTheSceneChanges() throws {
        let (simulation, context) = try simulation()
        defer { withExtendedLifetime(simulation) {} }
        let handles = try Self.paths.map { try context.property(at: $0) }
        try expectHandlesReadThePaths(simulation, context, handles)
        simulation.advance(seconds: 0.25)
        try expectHandlesReadThePaths(simulation, context, handles)
        #expect(try context.number(of: handles[0]) > 0)
        #expect(try context.number(of: handles[0]) < 200)
        // Another animation on top, a node removed and others added (slots freed and taken again).
        try simulation.animator.animate(AnimationParameters(duration: 0.5, curve: .easeOut), owner: "test") {
            try simulation.animator.set(Rect(x: 60, y: 100, width: 100, height: 40).vector, for: .frame, of: "box")
        }
        try simulation.scene.remove("card")
        try simulation.addNode("row", .view, Rect(x: 0, y: 0, width: 10, height: 10))
        try simulation.addNode("card", .view, Rect(x: 0, y: 0, width: 320, height: 90))
        simulation.advance(seconds: 0.3)
        try expectHandlesReadThePaths(simulation, context, handles)
        #expect(try context.number(of: handles[7]) == 90)
    }

    @Test func aHandleToARemovedNodeThrowsAndNeverReadsTheNodeInItsSlot() throws {
        let (simulation, context) = try simulation()
        defer { withExtendedLifetime(simulation) {} }
        let frame = context.property(.frame, of: try context.node("box"), presentation: true)
        simulation.advance(seconds: 0.5)
        try simulation.scene.remove("box")
        // The freed slot goes to another node: the handle does not read it.
        try simulation.addNode("intruder", .view, Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(throws: SceneError.removedNode("box")) { try context.value(of: frame) }
        #expect(throws: SceneError.removedNode("box")) { try context.number(of: frame) }
        #expect(
            SceneError.removedNode("box").description
                == "node 'box' was removed: a handle to it reads nothing until a node with its id is added")
        // A node with its id added again is read, as a node handle finds it.
        try simulation.addNode("box", .view, Rect(x: 7, y: 8, width: 9, height: 10))
        #expect(try context.value(of: frame) == SIMD4(7, 8, 9, 10))
    }

    /// A handle keeps its node's id in its scene, and a scene restored from another's snapshot (an
    /// exploration's later set-ups) takes those ids too: a handle a plugin kept from the first
    /// build names its node when it is gone from the restored scene, and reads it once it is back.
    @Test func aHandleMadeBeforeASnapshotReadsTheRestoredScene() throws {
        let (first, firstContext) = try simulation()
        defer { withExtendedLifetime(first) {} }
        let frame = try firstContext.property(at: "card.frame.y")
        let restored = Simulation(
            device: first.device, animationModel: .additive, mode: .virtual, installed: first.installedValues())
        let context = PluginContext(pluginID: "reader", simulation: restored)
        #expect(try context.number(of: frame) == 300)
        try restored.scene.remove("card")
        #expect(throws: SceneError.removedNode("card")) { try context.value(of: frame) }
        try restored.addNode("card", .view, Rect(x: 0, y: 120, width: 320, height: 200))
        #expect(try context.number(of: frame) == 120)
    }

    /// A handle is plain bytes: a plugin's `for handle in handles` copies each one every frame, and
    /// a reference in it (its node's id as a string) would be counted on every copy.
    @Test func aHandleIsPlainBytes() {
        #expect(_isPOD(PropertyHandle.self))
    }

    @Test func onlyANodesAnimatablePropertyResolvesToAHandle() throws {
        let (simulation, context) = try simulation()
        defer { withExtendedLifetime(simulation) {} }
        #expect(
            throws: PathError(
                path: "box.text",
                reason: "a handle reads a node's animatable property (NODE[.presentation].PROPERTY[.PART], such as "
                    + "box.presentation.frame.y); read other paths with value(at:)")
        ) { try context.property(at: "box.text") }
        #expect(throws: PathError.self) { try context.property(at: "nothing.presentation.frame.y") }
        #expect(throws: PathError.self) { try context.property(at: "box.frame.z") }
        #expect(throws: PathError.self) { try context.property(at: "time") }
    }

    /// Animations started together share one progress a frame: each value is still its own
    /// animation's, to the bit, whatever was read before it at that time.
    @Test func animationsSharingATimingReadTheirOwnValuesInAnyOrder() throws {
        func values(order: [String]) throws -> [String: SIMD4<Double>] {
            let simulation = Simulation()
            for (index, id) in ["a", "b", "c"].enumerated() {
                try simulation.addNode(id, .view, Rect(x: Double(index) * 50, y: 0, width: 40, height: 40))
            }
            for (id, y) in [("a", 300.0), ("b", 120.0)] {
                try simulation.animator.animate(AnimationParameters(duration: 0.5, curve: .easeInEaseOut), owner: "test") {
                    try simulation.animator.set(SIMD4(0, y, 40, 40) + SIMD4(id == "a" ? 0 : 50, 0, 0, 0), for: .frame, of: id)
                }
            }
            try simulation.animator.animate(AnimationParameters(duration: 0.5, curve: .easeIn), owner: "test") {
                try simulation.animator.set(SIMD4(100, 250, 40, 40), for: .frame, of: "c")
            }
            simulation.advance(seconds: 0.2)
            var found: [String: SIMD4<Double>] = [:]
            for id in order { found[id] = simulation.animator.presentationValue(of: .frame, of: id) }
            return found
        }
        let oneWay = try values(order: ["a", "b", "c"])
        #expect(try values(order: ["c", "b", "a"]) == oneWay)
        let easeInEaseOut = TimingCurve.easeInEaseOut.progress(elapsed: 0.2, duration: 0.5)
        let easeIn = TimingCurve.easeIn.progress(elapsed: 0.2, duration: 0.5)
        #expect(oneWay["a"]?[1] == 300 + (0 - 300) * (1 - easeInEaseOut))
        #expect(oneWay["b"]?[1] == 120 + (0 - 120) * (1 - easeInEaseOut))
        #expect(oneWay["c"]?[1] == 250 + (0 - 250) * (1 - easeIn))
    }
}
