import ArgumentParser
import RehearseCore

/// The `rehearse` command line tool.
@main
struct Rehearse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Simulate and test touch-interface interaction behaviours, headlessly.",
        subcommands: [Events.self, Plugins.self]
    )
}

/// The plugins this build of `rehearse` knows: one line per plugin.
let registry = BehaviourRegistry([])
