import ArgumentParser
import Foundation
import RehearseCore
import RehearseDBusService
import RehearsePluginHost
import RehearseScenario
import RehearseSession
import RehearseSupport

/// `rehearse serve`: the simulation on D-Bus as `org.rehearse.Simulator`.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the simulation on D-Bus (org.rehearse.Simulator1) until SIGINT or SIGTERM.",
        discussion: """
            Once the name is owned and peers can connect, prints one line on standard output: \
            `ready: NAME on BUS-ADDRESS; peers at ADDRESS (MODE clock)`; also to --ready-fd, and to systemd \
            (READY=1) when NOTIFY_SOCKET is set. Exit status: 0 after a signal, 1 when the bus connection is \
            lost, 2 for invalid input, a taken name or no bus.
            """)

    @OptionGroup var connection: BusOptions

    @Flag(help: "Take the name over from another owner that allows it.")
    var replace = false

    @OptionGroup var setup: ServeSetupOptions

    @Option(help: "Also serve peers that connect directly, without a bus daemon (unix:path=/tmp/rehearse.sock).")
    var listen: String?

    @Flag(help: "Serve only the peers at --listen, without joining a bus (no bus daemon needed).")
    var noBus = false

    @Option(
        help: ArgumentHelp(
            "When all \(SimulatorService.maximumPeers) peer places are taken, a newcomer takes the place of the peer that sent nothing for longest, if longer than this.",
            valueName: "seconds"))
    var idlePeerTimeout: Double = SimulatorService.defaultIdlePeerTimeout.inSeconds

    @Option(help: "Once serving, also write the readiness line to this file descriptor and close it.")
    var readyFd: Int32?

    @Option(help: "Record every session as a scenario file in this folder (default.yaml, session-N.yaml) when it ends.")
    var record: String?

    @OptionGroup var viewer: ViewerOptions

    @OptionGroup var accessibility: AccessibilityOptions

    func validate() throws {
        guard idlePeerTimeout.isFinite, (0...86_400).contains(idlePeerTimeout) else {
            throw ValidationError("--idle-peer-timeout is from 0 to 86400 seconds, found \(idlePeerTimeout)")
        }
        if noBus {
            guard listen != nil else { throw ValidationError("--no-bus serves only peers: give the address to --listen at") }
            guard connection.address == nil, !replace else {
                throw ValidationError("--no-bus joins no bus: --address and --replace do not apply")
            }
        }
    }

    func run() throws {
        // Before any plugin program starts: a signal while they start (each may take up to its
        // deadline) ends them and this program at once, not once the set-up is done.
        let commandPlugins = CommandPluginHost()
        StopSignal.endingPluginsWhileSettingUp(of: commandPlugins)
        defer { commandPlugins.stopAll() }
        let scenario = try setup.loadSetup(commandStarter: commandPlugins)
        var options = SimulatorService.Options()
        options.name = connection.name
        options.replace = replace
        options.readOnly = setup.readOnly
        options.mode = setup.mode
        options.listenAddress = listen
        options.idlePeerTimeout = .milliseconds(Int64((idlePeerTimeout * 1000).rounded()))
        if let record {
            let folder = URL(filePath: record, directoryHint: .isDirectory)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                FileHandle.standardError.write(
                    Data("rehearse serve: cannot use \(record) for recordings: \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
            options.recordFolder = folder
        }
        let export = try accessibility.start(for: scenario, readOnly: setup.readOnly, command: "serve")
        #if Viewer
            let viewer = try self.viewer.http.map { _ in
                try self.viewer.start(
                    at: .loopback, showing: setup.timelineScenario(beside: scenario, commandStarter: commandPlugins),
                    readOnly: setup.readOnly)
            }
            defer { viewer?.server.stop() }
            let companion = CompanionGroup.of([viewer?.viewer as (any SessionCompanion)?, export].compactMap { $0 })
            let viewerURL = viewer?.server.url
        #else
            let companion = CompanionGroup.of([export].compactMap { $0 })
            let viewerURL: String? = nil
        #endif
        let service: SimulatorService
        do {
            service = try SimulatorService(
                bus: noBus ? nil : connection.busAddress, options: options, registry: Tool.registry, setup: scenario,
                companion: companion)
        } catch {
            FileHandle.standardError.write(Data("rehearse serve: \(error)\(connection.hint(serving: true))\n".utf8))
            throw ExitCode(2)
        }
        StopSignal.setUpIsOver()
        Readiness.announce(readinessLine(peerAddress: service.peerAddress, viewerURL: viewerURL), fileDescriptor: readyFd)
        do {
            try service.run { StopSignal.isRequested }
        } catch {
            FileHandle.standardError.write(Data("rehearse serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `ready: NAME on BUS-ADDRESS (CLOCK clock)`, with `; peers at ADDRESS` when listening and
    /// `; viewer at URL` with `--http`.
    private func readinessLine(peerAddress: String?, viewerURL: String?) -> String {
        var places: [String] = []
        if !noBus { places.append("\(connection.name) on \(connection.busAddress)") }
        if let peerAddress { places.append("peers at \(peerAddress)") }
        if let viewerURL { places.append("viewer at \(viewerURL)") }
        return "ready: \(places.joined(separator: "; ")) (\(setup.mode.rawValue) clock)"
    }
}
