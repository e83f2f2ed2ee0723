import ArgumentParser
import Foundation
import RehearseCore
import RehearsePlugins

/// The `rehearse` command line tool.
@main
struct Rehearse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Simulate and test touch-interface interaction behaviours, headlessly.",
        subcommands: [Run.self, Validate.self, Render.self, Serve.self, Inject.self, Monitor.self, Events.self, Plugins.self]
    )

    /// Runs the command, mapping usage errors to exit code 2 (argument-parser's default is 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
                stream.write(Data((message + "\n").utf8))
            }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

/// The plugins this build of `rehearse` knows.
let registry = pluginRegistry
