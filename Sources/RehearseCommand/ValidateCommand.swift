import ArgumentParser
import RehearsePluginHost
import RehearseScenario

/// `rehearse validate PATH...`: loads scenario files without running them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenario files without running them.",
        discussion:
            "Warns of golden pictures no step uses. A file's command plugins are started to learn their events and state. "
            + "Exit status: 0 when every file is valid, 2 otherwise.")

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    func run() throws {
        try ScenarioChecks.load(ScenarioFiles.collect(paths)) { file, scenario in
            print("OK \(file)")
            for stale in PictureReferences(scenarioFile: file)?.stale(for: scenario) ?? [] {
                print("warning: \(file): the golden picture \(stale) is stale: no expect-picture step names it")
            }
        }
    }
}

/// Loading files without running them, for `validate` and `run --list`.
enum ScenarioChecks {
    /// Loads each of `files` (starting their command plugins, to learn their events and state)
    /// and hands `loaded` each that loads; prints the errors of the others, and exits with 2 at
    /// the end if there were any.
    static func load(_ files: [String], _ loaded: (String, Scenario) -> Void) throws {
        let commandPlugins = CommandPluginHost()
        StopSignal.endingPlugins(of: commandPlugins)
        defer { commandPlugins.stopAll() }
        let loader = ScenarioLoader(registry: Tool.registry, commandStarter: commandPlugins)
        var invalid = 0
        for file in files {
            do {
                loaded(file, try loader.load(file: file))
            } catch {
                invalid += 1
                print("\(error)")
            }
        }
        if invalid > 0 { throw ExitCode(2) }
    }
}
