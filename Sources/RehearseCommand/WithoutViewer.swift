#if !Viewer
    import ArgumentParser

    /// What a tool built without the `Viewer` trait says when asked for the live viewer: that it is
    /// left out of this build and how to build it in, instead of a usage error about its arguments.
    enum WithoutViewer {
        static let explanation = """
            the live viewer is not built into this tool: its package leaves out Rehearse's `Viewer` trait. \
            Build it in with `traits: ["Viewer"]` on the Rehearse dependency (or no `traits:` at all), \
            or use the shipped `rehearse`
            """
    }

    /// `view` in a tool built without the `Viewer` trait: takes any arguments and says why it cannot run.
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Watch and drive a simulation in the browser (not built into this tool).")

        @Argument(parsing: .allUnrecognized, help: .hidden)
        var arguments: [String] = []

        func run() throws {
            throw ValidationError(WithoutViewer.explanation)
        }
    }

    /// `serve --http` in a tool built without the `Viewer` trait: refused with why.
    struct ViewerOptions: ParsableArguments {
        @Option(help: ArgumentHelp("Serve the live viewer here (not built into this tool).", valueName: "HOST:PORT"))
        var http: String?

        func validate() throws {
            if http != nil { throw ValidationError("--http: " + WithoutViewer.explanation) }
        }
    }
#endif
