import Benchmark
import RehearseCore

/// Touch against the tap path (issue 26), side by side in one run: a tap injected as today, the
/// same tap made by a finger (`touch.began` and `touch.ended`, recognised as a tap), and one touch
/// event; a frame of a scroll view's pan by one finger and by two (issue 39: the centroid of both
/// moves, one touch event); and the simulated time a fling of a scroll view with 1,000 rows takes to run.
func registerTouchBenchmarks() {
    func simulation() -> Simulation {
        let simulation = Simulation()
        try? simulation.scene.add(Node(id: "card", kind: .view, frame: Rect(x: 0, y: 0, width: 320, height: 568)))
        try? simulation.scene.add(
            Node(id: "button", kind: .button, frame: Rect(x: 100, y: 400, width: 120, height: 44)), to: "card")
        return simulation
    }
    let point = Point(x: 160, y: 422)

    Benchmark("Touch/tap/injected") { benchmark in
        let simulation = simulation()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try? simulation.inject(.tap(Tap(point: point)))) }
    }

    Benchmark("Touch/tap/made of two touches") { benchmark in
        let simulation = simulation()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? simulation.inject(.touchBegan(Touch(id: 0, point: point))))
            blackHole(try? simulation.inject(.touchEnded(Touch(id: 0, point: point))))
        }
    }

    Benchmark("Touch/tap/one touch event") { benchmark in
        let simulation = simulation()
        _ = try? simulation.inject(.touchBegan(Touch(id: 0, point: point)))
        var y = point.y
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            y = y == point.y ? point.y + 1 : point.y
            blackHole(try? simulation.inject(.touchMoved(Touch(id: 0, point: Point(x: point.x, y: y)))))
        }
    }

    /// A frame of a pan under way: the fingers moved a point up or back down as one touch event,
    /// the pan recognised, the content moved and `scroll.didScroll` posted.
    func panFrame(fingers: [Point]) -> (Benchmark) -> Void {
        { benchmark in
            let simulation = Simulation()
            try? simulation.scene.add(Node(id: "list", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 320, height: 568)))
            try? simulation.scene.update("list") { $0.contentSize = Size(width: 320, height: 3_000) }
            let started = fingers.enumerated().map { Touch(id: $0.offset, point: Point(x: $0.element.x, y: $0.element.y - 20)) }
            for (id, point) in fingers.enumerated() { _ = try? simulation.inject(.touchBegan(Touch(id: id, point: point))) }
            _ = try? simulation.injectMoves(started)  // 20 points up: the pan has begun
            var up = false
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                up.toggle()
                let moves = started.map { Touch(id: $0.id, point: Point(x: $0.point.x, y: $0.point.y - (up ? 1 : 0))) }
                blackHole(try? simulation.injectMoves(moves))
            }
        }
    }
    Benchmark("Touch/pan a frame/one finger", closure: panFrame(fingers: [Point(x: 160, y: 400)]))
    Benchmark("Touch/pan a frame/two fingers", closure: panFrame(fingers: [Point(x: 120, y: 400), Point(x: 200, y: 400)]))

    Benchmark("Touch/fling of a 1,000-row scroll view/3 simulated seconds", configuration: .init(scalingFactor: .one)) {
        benchmark in
        let simulation = Simulation(device: .iPhone13Pro)  // 120 Hz
        try? simulation.scene.add(Node(id: "list", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 390, height: 844)))
        try? simulation.scene.update("list") { $0.contentSize = Size(width: 390, height: 44_000) }
        for row in 0..<1_000 {
            try? simulation.scene.add(
                Node(id: "row\(row)", kind: .view, frame: Rect(x: 0, y: Double(row) * 44, width: 390, height: 44)),
                to: "list")
        }
        let fling = TouchStream.drag(
            id: 0, from: Point(x: 195, y: 700), to: Point(x: 195, y: 300),
            duration: VirtualTime(nanoseconds: 150_000_000), rate: 120)
        // Back to the top, then a fling and the deceleration after it.
        runThreeSeconds(benchmark, simulation, touches: fling) {
            try? simulation.setValue(["x": 0, "y": 0], at: "list.contentOffset")
        }
        blackHole(simulation.scene["list"]?.contentOffset)
    }
}

/// Measures, each iteration, `reset` and then `touches` injected from now and the rest of 3
/// simulated seconds run.
func runThreeSeconds(_ benchmark: Benchmark, _ simulation: Simulation, touches: [TimedTouch], reset: () -> Void) {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        reset()
        let start = simulation.now
        for touch in touches { try? simulation.inject(touch.event, at: start + touch.offset) }
        simulation.advance(by: VirtualTime(nanoseconds: 3_000_000_000))
    }
    benchmark.stopMeasurement()
}
