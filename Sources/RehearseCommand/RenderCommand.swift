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

    @Option(
        help: "The simulated time to draw, in seconds, from 0 to the run's length (--at=-1 for a negative value is refused too).")
    var at: Double

    @Option(name: .shortAndLong, help: "Where to write the SVG (default: standard output).")
    var output: String?

    func run() throws {
        if let output { try ScenarioFiles.refuseOverwriting([scenario], with: output, option: "--output") }
        let loaded: Scenario
        do {
            loaded = try ScenarioLoader(registry: Tool.registry).load(file: scenario)
        } catch {
            print(error)
            throw ExitCode(2)
        }
        let length = loaded.duration.seconds
        guard at.isFinite, (0...length).contains(at), let time = VirtualTime.seconds(at) else {
            throw ValidationError(
                "--at \(at.shortDescription) is outside the run: \(scenario) runs from 0 to \(length.shortDescription) s")
        }
        var runner = ScenarioRunner(registry: Tool.registry)
        runner.stopTime = time
        let result = runner.run(loaded)
        switch result.outcome {
        case .invalid(let error), .stopped(let error):
            print(error)
            throw ExitCode(2)
        case .passed, .failed: break
        }
        guard let snapshot = result.finalSnapshot else { throw ExitCode(2) }
        let svg = SVGRenderer.document(snapshot)
        if let output {
            try ScenarioFiles.write(svg, to: output, option: "--output", sparing: [scenario])
            print(TerminalText.escape("wrote \(output): \(scenario) at \(at.shortDescription) s"))
        } else {
            print(svg, terminator: "")
        }
    }
}
