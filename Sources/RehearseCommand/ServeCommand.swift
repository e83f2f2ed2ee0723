import ArgumentParser
import Foundation
import RehearseCore
import RehearseDBus
import RehearseScenario

extension ClockMode: ExpressibleByArgument {}

/// `rehearse serve`: the simulation on D-Bus as `org.rehearse.Simulator`.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the simulation on D-Bus (org.rehearse.Simulator1) until SIGINT or SIGTERM.",
        discussion: "Exit status: 0 after a signal, 1 when the bus connection is lost, 2 for invalid input or a taken name.")

    @OptionGroup var connection: BusOptions

    @Flag(help: "Take the name over from another owner that allows it.")
    var replace = false

    @Option(help: "How time moves: realtime (paced to the wall clock), manual (only on Advance) or virtual (as fast as work comes).")
    var mode: ClockMode = .realtime

    @Option(help: "A device preset (when no scenario is given).")
    var device: String?

    @Option(help: "Set the simulation up from this scenario file (device, scene, plugins; its steps are not run).")
    var scenario: String?

    @Option(parsing: .upToNextOption, help: "Plugins to install (when no scenario is given).")
    var plugins: [String] = []

    @Flag(help: "Refuse every method that changes state.")
    var readOnly = false

    @Option(help: "Also serve peers that connect directly, without a bus daemon (unix:path=/tmp/rehearse.sock).")
    var listen: String?

    @Flag(help: "Serve only the peers at --listen, without joining a bus (no bus daemon needed).")
    var noBus = false

    func validate() throws {
        guard scenario == nil || (device == nil && plugins.isEmpty) else {
            throw ValidationError("give the device and plugins in the scenario file, or --device and --plugins without one")
        }
        if noBus {
            guard listen != nil else { throw ValidationError("--no-bus serves only peers: give the address to --listen at") }
            guard connection.address == nil, !replace else {
                throw ValidationError("--no-bus joins no bus: --address and --replace do not apply")
            }
        }
    }

    func run() throws {
        let setup = try loadSetup()
        var options = SimulatorService.Options()
        options.name = connection.name
        options.replace = replace
        options.readOnly = readOnly
        options.mode = mode
        options.listenAddress = listen
        let service: SimulatorService
        do {
            service = try SimulatorService(bus: noBus ? nil : connection.busAddress, options: options, registry: Tool.registry, setup: setup)
        } catch {
            FileHandle.standardError.write(Data("rehearse serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
        StopSignal.install()
        let place = noBus ? "peers at \(listen ?? "")" : connection.name
        FileHandle.standardError.write(Data("serving \(place) (\(mode.rawValue) clock)\n".utf8))
        do {
            try service.run { StopSignal.isRequested }
        } catch {
            FileHandle.standardError.write(Data("rehearse serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The scenario file, or one written from `--device` and `--plugins`.
    private func loadSetup() throws -> Scenario {
        let loader = ScenarioLoader(registry: Tool.registry)
        do {
            if let scenario { return try loader.load(file: scenario) }
            var yaml = "name: serve\n"
            if let device { yaml += "device: \(FieldValue.string(device).jsonText)\n" }
            if !plugins.isEmpty { yaml += "plugins: [\(plugins.map { FieldValue.string($0).jsonText }.joined(separator: ", "))]\n" }
            yaml += "steps: [{wait: 0}]\n"
            return try loader.load(data: Data(yaml.utf8), file: "serve options")
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
