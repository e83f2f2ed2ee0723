import ArgumentParser
import Foundation
import RehearsePluginHost
import RehearseScenario

/// `rehearse audit PATH...`: runs scenario files and checks the scene after every step against
/// the accessibility rules.
struct Audit: AsyncParsableCommand {
    /// The formats `audit` prints in.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit
    }

    static let configuration = CommandConfiguration(
        abstract: "Run scenario files and check the scene after every step against accessibility rules.",
        discussion: "Rules: " + AccessibilityRule.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
            + ". Each finding is said once, at the step after which it appeared; one the file documents as the "
            + "original app's (accessibility: {deviations}) is listed as deviated. "
            + "Exit status: 0 with no finding but deviated ones, 1 with findings or a stale deviation (one that matched "
            + "no finding), 2 when a file could not be audited or for usage.")

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .text

    @Option(help: "How many files to run at once.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var budget: BudgetOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let files = try ScenarioFiles.collect(paths)
        var runner = ScenarioRunner(registry: Tool.registry)
        runner.budget = budget.budget
        runner.audits = true
        let commandPlugins = CommandPluginHost()
        StopSignal.endingPlugins(of: commandPlugins)
        defer { commandPlugins.stopAll() }
        runner.commandStarter = commandPlugins
        let audited = runner
        let results = await ParallelRuns.run(files, jobs: jobs, { audited.run(file: $0) }, progress: { _ in })
        switch format {
        case .text: print(AuditReport.text(results))
        case .json: print(AuditReport.json(results))
        case .junit: print(AuditReport.junit(results), terminator: "")
        }
        let code = AuditReport.exitCode(results)
        if code != 0 { throw ExitCode(code) }
    }
}
