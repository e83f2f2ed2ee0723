import ArgumentParser
import Foundation
import RehearseCore
import RehearsePluginHost
import RehearsePlugins
import RehearseScenario

/// The `rehearse` command line tool as a library: a package that writes its own plugins gets its
/// own `rehearse`, with every subcommand, from a five-line `main.swift`:
///
/// ```swift
/// import RehearseCommand
/// import RehearseCore
///
/// await RehearseCommand.main(plugins: [PluginDescriptor(ShakeDetector.self)])
/// ```
public enum RehearseCommand {
    /// Parses the process's arguments and runs `rehearse` knowing the shipped plugins and
    /// `plugins`, then exits: 0 passed, 1 an expectation failed, 2 invalid input or usage.
    public static func main(plugins: [PluginDescriptor] = []) async -> Never {
        let shippedIDs = Set(shippedPlugins.descriptors.map(\.id))
        var seen: Set<String> = []
        for plugin in plugins where shippedIDs.contains(plugin.id) || !seen.insert(plugin.id).inserted {
            FileHandle.standardError.write(Data("rehearse: two plugins have the id '\(plugin.id)'\n".utf8))
            exit(2)
        }
        let registry = PluginRegistry(shippedPlugins.descriptors + plugins)
        // It starts no children but command plugins' programs: what they leave behind is ended with them.
        CommandPluginHost.adoptOrphans()
        await Tool.$registry.withValue(registry) { await Rehearse.main() }
        exit(0)
    }
}

/// What the subcommands share while one runs.
enum Tool {
    /// The plugins this `rehearse` knows.
    @TaskLocal static var registry = shippedPlugins
}

/// The root command.
struct Rehearse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Simulate and test touch-interface interaction behaviours, headlessly.",
        version: RehearseCommand.version,
        subcommands: subcommands
    )

    /// Every subcommand; without the `Viewer` trait (on by default; it builds the web stack), `view`
    /// and `serve --http` only say that the viewer is left out of the build (`WithoutViewer`).
    private static let subcommands: [any ParsableCommand.Type] = [
        Run.self, Audit.self, Validate.self, Explore.self, Render.self, Schema.self, View.self,
        Serve.self, Inject.self, Monitor.self, Events.self, Plugins.self, Devices.self, InstallDBusService.self,
    ]

    /// Runs the command, mapping usage errors to exit code 2 (argument-parser's default is 64); a
    /// usage error found while a subcommand runs shows that subcommand's usage, as one found
    /// while parsing does.
    static func main() async {
        var subcommand: (any ParsableCommand.Type)?
        do {
            var command = try parseAsRoot()
            subcommand = type(of: command)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            // Messages name what was given (paths, names, a service's error text): escaped, so
            // none of it reaches the terminal as a control sequence.
            var message = TerminalText.escape(fullMessage(for: error), keepingLineBreaks: true)
            if let validation = error as? ValidationError, let subcommand, subcommand != Rehearse.self {
                let name = subcommand._commandName
                message =
                    "Error: \(TerminalText.escape(validation.message))\nUsage: \(usageString(for: subcommand))\n"
                    + "  See 'rehearse \(name) --help' for more information."
            }
            if !message.isEmpty {
                let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
                stream.write(Data((message + "\n").utf8))
            }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
