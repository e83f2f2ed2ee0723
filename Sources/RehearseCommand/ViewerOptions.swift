#if Viewer
    import ArgumentParser
    import Foundation
    import RehearseScenario
    import RehearseView

    /// Where the live viewer is served: shared by `view` (loopback port 8080 unless told) and `serve --http`.
    struct ViewerOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "Serve the live viewer here (view: 127.0.0.1:8080); an address other than loopback lets other "
                    + "machines drive the simulation. Port 0 takes a free port.", valueName: "HOST:PORT"))
        var http: ViewerAddress?

        /// Starts the viewer's server at `--http` (or `fallback`), the page read-only if `readOnly`;
        /// exits 2 when the address cannot be listened at.
        func start(at fallback: ViewerAddress, showing scenario: Scenario?, readOnly: Bool) throws -> (
            viewer: LiveViewer, server: ViewerServer
        ) {
            let address = http ?? fallback
            if !address.isLoopback {
                FileHandle.standardError.write(
                    Data(
                        "rehearse: the viewer at \(address) is open to other machines; anyone who reaches it can drive the simulation\n"
                            .utf8))
            }
            let viewer = LiveViewer(
                readOnly: readOnly, scenario: scenario?.steps.isEmpty == false ? scenario : nil, registry: Tool.registry)
            do {
                return (viewer, try ViewerServer.start(viewer, at: address))
            } catch {
                FileHandle.standardError.write(Data("rehearse: cannot serve the viewer at \(address): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
    }
#endif
