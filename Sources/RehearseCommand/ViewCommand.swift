#if Viewer
    import ArgumentParser
    import Foundation
    import RehearseCore
    import RehearsePluginHost
    import RehearseScenario
    import RehearseSession
    import RehearseView

    extension ViewerAddress: ExpressibleByArgument {
        public init?(argument: String) {
            self.init(argument)
        }
    }

    /// `rehearse view`: the simulation live in a browser, driven from the page.
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Watch and drive a simulation in the browser: a live view served over HTTP until SIGINT or SIGTERM.",
            discussion: """
                Open the printed address. Click the screen to tap, type to enter text (Enter is return), drag the tilt pad \
                to send motion; rotate, show the keyboard, take the network away, pause, step and restart from the page. \
                With a scenario file, the page also has its run as a timeline to scrub. `rehearse serve --http` serves the \
                same page beside D-Bus, on the simulation D-Bus clients drive. Prints `viewing: URL (MODE clock)` once \
                listening. The viewer answers only to its own host names, closes connections idle for 30 s and holds at most \
                256 (docs/viewer.md). Exit status: 0 after a signal, 2 for invalid input or an address that cannot be listened at.
                """)

        @Argument(
            help: "A scenario file: its set-up is simulated (its steps are not run) and its run can be scrubbed on the page.")
        var file: String?

        @OptionGroup var viewer: ViewerOptions

        @OptionGroup var setup: ServeSetupOptions

        @OptionGroup var accessibility: AccessibilityOptions

        func validate() throws {
            guard file == nil || setup.scenario == nil else {
                throw ValidationError("give the scenario file once: as the argument or as --scenario")
            }
            guard file == nil || (setup.device == nil && setup.plugins.isEmpty) else {
                throw ValidationError("give the device and plugins in the scenario file, or --device and --plugins without one")
            }
        }

        func run() throws {
            var setup = setup
            if let file { setup.scenario = file }
            // Before any plugin program starts: a signal while they start (each may take up to its
            // deadline) ends them and this program at once, not once the set-up is done.
            let commandPlugins = CommandPluginHost()
            StopSignal.endingPluginsWhileSettingUp(of: commandPlugins)
            defer { commandPlugins.stopAll() }
            let scenario = try setup.loadSetup(commandStarter: commandPlugins)
            let export = try accessibility.start(for: scenario, readOnly: setup.readOnly, command: "view")
            let companion = try viewer.start(
                at: .loopback, showing: setup.timelineScenario(beside: scenario, commandStarter: commandPlugins),
                readOnly: setup.readOnly)
            let session: SimulatorSession
            do {
                session = try SimulatorSession(setup: scenario, registry: Tool.registry, mode: setup.mode)
            } catch {
                FileHandle.standardError.write(Data("rehearse view: \(error)\n".utf8))
                throw ExitCode(2)
            }
            StopSignal.setUpIsOver()
            Readiness.announce("viewing: \(companion.server.url) (\(setup.mode.rawValue) clock)", fileDescriptor: nil)
            defer { companion.server.stop() }
            // The page is the only client: no D-Bus service is built (`serve --http` serves both).
            CompanionLoop(
                session: session,
                companion: CompanionGroup([companion.viewer as any SessionCompanion] + [export].compactMap { $0 })
            ).run {
                StopSignal.isRequested
            }
        }
    }
#endif
