import Benchmark
import RehearseCore

/// Zooming (issue 39): the simulated time a pinch takes to run on a zoom view of 1,000 nodes,
/// against real time.
func registerZoomBenchmarks() {
    Benchmark("Touch/zoom of a 1,000-node view/3 simulated seconds", configuration: .init(scalingFactor: .one)) { benchmark in
        let simulation = Simulation(device: .iPhone13Pro)  // 120 Hz
        var photo = Node(id: "photo", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 390, height: 844))
        photo.contentSize = Size(width: 390, height: 844)
        photo.maximumZoomScale = 2
        photo.viewForZooming = "image"
        try? simulation.scene.add(photo)
        try? simulation.scene.add(Node(id: "image", kind: .view, frame: Rect(x: 0, y: 0, width: 390, height: 844)), to: "photo")
        for tile in 0..<1_000 {
            let frame = Rect(x: Double(tile % 25) * 15.6, y: Double(tile / 25) * 21.1, width: 15.6, height: 21.1)
            try? simulation.scene.add(Node(id: "tile\(tile)", kind: .view, frame: frame), to: "image")
        }
        // Two fingers part to three times their distance over 0.5 s: past the maximum, by the
        // rubber band, then the spring back to 2 in the 2.5 s after.
        let pinch = TouchStream.pinch(
            ids: (0, 1), center: Point(x: 195, y: 422), scale: 3,
            duration: VirtualTime(nanoseconds: 500_000_000), rate: 120)
        // Back to scale 1, then the pinch and the spring back.
        runThreeSeconds(benchmark, simulation, touches: pinch) {
            try? simulation.setValue(1, at: "photo.zoomScale")
            try? simulation.setValue(["width": 390, "height": 844], at: "photo.contentSize")
            try? simulation.setValue(["x": 0, "y": 0, "width": 390, "height": 844], at: "image.frame")
            try? simulation.setValue(["x": 0, "y": 0], at: "photo.contentOffset")
        }
        blackHole(simulation.scene["photo"]?.zoomScale)
    }
}
