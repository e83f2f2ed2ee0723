import ArgumentParser
import RehearseDBus
import RehearseScenario

/// `rehearse validate PATH...`: loads scenario files without running them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenario files without running them.",
        discussion: "Warns of golden pictures no step uses. A file's command plugins are started to learn their events and state. "
            + "Exit status: 0 when every file is valid, 2 otherwise.")

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    func run() throws {
        let commandPlugins = CommandPluginHost()
        StopSignal.endingPlugins(of: commandPlugins)
        defer { commandPlugins.stopAll() }
        let loader = ScenarioLoader(registry: Tool.registry, commandStarter: commandPlugins)
        var invalid = 0
        for file in try ScenarioFiles.collect(paths) {
            do {
                let scenario = try loader.load(file: file)
                print("OK \(file)")
                for stale in PictureReferences(scenarioFile: file)?.stale(for: scenario) ?? [] {
                    print("warning: \(file): the golden picture \(stale) is stale: no expect-picture step names it")
                }
            } catch {
                invalid += 1
                print("\(error)")
            }
        }
        if invalid > 0 { throw ExitCode(2) }
    }
}
