import ArgumentParser
import Foundation
import RehearseCore
import RehearseScenario

/// `rehearse render SCENARIO --at T`: the scene at one moment of a scenario, as SVG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario up to a time and draw the scene then as SVG (keyboard and scroll bars included).")

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(help: "The simulated time to draw, in seconds.")
    var at: Double

    @Option(name: .shortAndLong, help: "Where to write the SVG (default: standard output).")
    var output: String?

    func validate() throws {
        guard at.isFinite, at >= 0, VirtualTime.seconds(at) != nil else {
            throw ValidationError("--at must be a time in seconds, 0 or more")
        }
    }

    func run() throws {
        if let output { try ScenarioFiles.refuseOverwriting([scenario], with: output, option: "--output") }
        var runner = ScenarioRunner(registry: Tool.registry)
        runner.stopTime = VirtualTime.seconds(at)
        let result = runner.run(file: scenario)
        if case .invalid(let error) = result.outcome {
            print(error)
            throw ExitCode(2)
        }
        guard let snapshot = result.finalSnapshot else { throw ExitCode(2) }
        let svg = SVGRenderer.document(snapshot)
        if let output {
            do {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw ValidationError("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            print(svg, terminator: "")
        }
    }
}
