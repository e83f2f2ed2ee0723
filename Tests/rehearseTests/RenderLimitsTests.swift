import Foundation
import IntegrationTestSupport
import Testing

/// What `run --render` keeps until it writes: the pictures of one run draw a bounded number of
/// nodes, and a plotted path a bounded number of samples, whatever the file asks for.
@Suite struct RenderLimitsTests {
    /// 1,000 nodes and 300 snapshot steps (about 60 KB) would draw 300,000 nodes: refused at the
    /// snapshot that passes the limit (4,000 of each took 4.6 GB and 2.3 GB of pictures before).
    @Test func thePicturesOfARunHaveALimit() throws {
        var lines = ["name: many pictures", "scene:", "  nodes:"]
        for index in 0..<1000 { lines.append("    - {id: n\(index), kind: view, frame: [0, 0, 10, 10]}") }
        lines.append("steps:")
        for index in 0..<300 { lines.append("  - snapshot: s\(index)") }
        let file = try Rehearse.scenario(lines.joined(separator: "\n") + "\n")
        let folder = file.deletingLastPathComponent()
        #expect(try Rehearse.run(["run", file.path]).status == 0, "without pictures it runs")
        let result = try Rehearse.run(["run", "--render", folder.appendingPathComponent("out").path, file.path])
        #expect(result.status == 2)
        // 249 pictures of the 1,000 nodes fit in 250,000; the 250th does not.
        #expect(
            result.output.contains("\(file.path):1254:5: error: the pictures of this run would draw more than 250000 nodes"),
            "\(result.output)")
    }

    @Test func aPlottedPathHasAtMostTenThousandSamples() throws {
        let file = try Rehearse.scenario("name: long plot\nsteps:\n  - wait: 100000\n")
        let folder = file.deletingLastPathComponent()
        let result = try Rehearse.run(["run", "--render", "out", "--plot", "time", "scenario.yaml"], in: folder)
        #expect(result.status == 0, "\(result.output)")
        let plot = try String(contentsOf: folder.appendingPathComponent("out/scenario/plot.svg"), encoding: .utf8)
        let points = plot.split(separator: "\"").first { $0.contains(",") && $0.contains(" ") && !$0.contains("=") } ?? ""
        let count = points.split(separator: " ").count
        #expect(count == 10_001, "6,000,001 samples (every frame of 100,000 s) before")
    }
}
