import ArgumentParser
import Foundation
import RehearseCore
import RehearsePluginHost
import RehearseScenario
import RehearseSupport

/// `rehearse explore SCENARIO`: random interaction sequences on the scenario's set-up until an
/// invariant breaks; the failure is shrunk and written as a scenario file.
struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run seeded random action sequences on a scenario's set-up, checking every invariant; shrink a failure to a scenario file.",
        discussion: """
            The actions are taps on the scene's nodes, focus, text and return on its fields, resign, the four \
            orientations, the network on and off, tilts and waits (and drags, flings, swipes and long presses when the \
            file's explore: section lists them). A failure is written as the steps that do its actions (tap: ID, \
            type, drag: {on: ...}, wait: ...), which rehearse run fails at the time printed. Exit status: 0 when no \
            invariant broke, 1 when one did (the shrunk scenario is written to --out and its path printed), 2 for \
            invalid input or usage, a sequence past the budget, a command plugin that failed, or a failure that its \
            shrunk scenario, run afresh, does not give (a plugin answered the same sequence differently).
            """)

    @Argument(help: "The scenario whose set-up (device, scene, plugins, invariants) is explored; its steps are not run.")
    var scenario: String

    @Option(help: "The first sequence's seed; sequence i uses seed + i. A failure prints its seed: --seed S --runs 1 reruns it.")
    var seed: UInt64 = 1

    @Option(help: "How many sequences to run (default: the file's explore: {runs}, or 2000).")
    var runs: Int?

    @Option(help: "Actions per sequence (default: the file's explore: {length}, or 20).")
    var length: Int?

    @Option(help: "Where to write a failure's shrunk scenario (created if needed).")
    var out: String = "explore-failures"

    @Flag(
        help:
            "Replace a file of --out that has the failure's name but other content (without it, such a file is kept and the failure written beside it as NAME-2.yaml, ...)."
    )
    var force = false

    @Option(help: "Report format: text, json or jsonl (one JSON line, so shards merge by concatenation), or junit.")
    var format: ReportFormat = .text

    @Option(
        help:
            "Write a failure's shrunk scenario, run, as an HTML report here (as rehearse run --report), with the scene when the invariant broke."
    )
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Run only part K of N of the seeds (as `run --shard`; read from the same variables).",
            valueName: "K/N"))
    var shard: Shard?

    @Option(
        help:
            "How many sequences to run at once (as many as the machine has cores run together); the outcome is the same for any number."
    )
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var budget: BudgetOptions

    func validate() throws {
        guard (1...ScenarioLimits.exploreRuns).contains(runs ?? 1) else {
            throw ValidationError("--runs must be 1 to \(ScenarioLimits.exploreRuns)")
        }
        guard (1...Explorer.maximumJobs).contains(jobs) else {
            throw ValidationError("--jobs must be 1 to \(Explorer.maximumJobs)")
        }
        guard (1...ScenarioLimits.exploreLength).contains(length ?? 1) else {
            throw ValidationError("--length must be 1 to \(ScenarioLimits.exploreLength)")
        }
    }

    func run() throws {
        do {
            try explore()
        } catch let exceeded as BudgetExceeded {
            try stop("a sequence stopped: \(exceeded)")
        } catch let setUp as ScenarioSetupError where setUp.underlying is RemotePluginError {
            // A command plugin's fault closed its connection: the next sequence could not install it.
            try stop("a command plugin failed, so no further sequence can run: \(setUp)")
        } catch let notReproduced as FailureNotReproduced {
            try stop("\(notReproduced)")
        }
    }

    /// Says why the exploration stopped without an outcome, in the report's format, and exits 2.
    private func stop(_ message: String) throws -> Never {
        switch format {
        case .text, .junit: print(TerminalText.escape("\(scenario): error: \(message)"))
        case .json, .jsonl:
            print(
                FieldValue.dictionary(["scenario": .string(scenario), "status": "invalid", "error": .string(message)]).jsonText)
        }
        throw ExitCode(2)
    }

    private func explore() throws {
        try ReportFolder.check(report)
        let loaded: Scenario
        let commandPlugins = CommandPluginHost()
        StopSignal.endingPlugins(of: commandPlugins)
        defer { commandPlugins.stopAll() }
        do {
            loaded = try ScenarioLoader(registry: Tool.registry, commandStarter: commandPlugins).load(file: scenario)
        } catch {
            print(TerminalText.escape("\(error)"))
            throw ExitCode(2)
        }
        var explorer = try Explorer(scenario: loaded, registry: Tool.registry)
        if let length { explorer.length = length }
        explorer.budget = budget.budget
        if let problem = explorer.sequenceTimeProblem { throw ValidationError("--length \(explorer.length): \(problem)") }
        let runs = runs ?? loaded.explore?.runs ?? Explorer.defaultRuns
        guard seed <= UInt64.max - UInt64(runs) else { throw ValidationError("--seed plus the runs passes 2^64 - 1") }
        let part = try shard ?? Shard.fromEnvironment(ProcessInfo.processInfo.environment) ?? Shard(index: 1, count: 1)!
        let seeds = part.seeds(from: seed, runs: runs)
        let text = format == .text
        if text {
            print(
                TerminalText.escape(
                    "exploring \(scenario): \(seeds.underestimatedCount) sequences of \(explorer.length) actions, seeds from \(seed)"
                        + (part.count > 1 ? ", shard \(part)" : "")))
        }
        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = isatty(STDERR_FILENO) == 1
        let coverage = ExploreCoverage()
        // A command plugin is one program answering one simulation at a time.
        let jobs = loaded.remotePlugins.isEmpty ? jobs : 1
        let outcome = try explorer.explore(seeds: seeds, jobs: jobs, coverage: coverage) { count in
            if showsProgress, count % 100 == 0 {
                let line = "\r\u{1B}[K[\(count)] \(Self.rate(count, since: start, clock)) sequences/s, \(coverage.summary)"
                FileHandle.standardError.write(Data(line.utf8))
            }
            return true
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let seconds = (clock.now - start).inSeconds
        var failure: (found: Explorer.Failure, shrunk: Explorer.Failure, file: String)?
        if let found = outcome.failure {
            let shrunk = try explorer.shrink(found)
            try checkReproduced(shrunk, explorer: explorer, plugins: commandPlugins)
            failure = (found, shrunk, try write(shrunk, explorer: explorer))
            if let report, let file = failure?.file { try writeReport(of: file, into: report, plugins: commandPlugins) }
        }
        let report = try ExploreReport(
            scenario: scenario, shard: part.description, sequences: outcome.sequences,
            seconds: seconds, coverage: coverage, failure: failure, explorer: explorer)
        switch format {
        case .text: printText(report)
        case .json, .jsonl: print(report.jsonLine)
        case .junit: print(report.junit, terminator: "")
        }
        if failure != nil { throw ExitCode(1) }
    }

    private func printText(_ report: ExploreReport) {
        let rate = report.seconds > 0 ? Int(Double(report.sequences) / report.seconds) : 0
        guard let (found, shrunk, file) = report.failure else {
            print(
                "no invariant broke in \(report.sequences) sequences (\(rate) sequences/s; "
                    + "events \(report.events.count)/\(report.vocabularySize), plugin states \(report.pluginStates.count))")
            if !report.neverReached.isEmpty {
                print(TerminalText.escape("never reached: \(report.neverReached.joined(separator: ", "))"))
            }
            return
        }
        let invariant = shrunk.invariant
        // The time the written file fails at: the shrunk sequence's, which it replays step for step.
        print(
            TerminalText.escape(
                "invariant '\(invariant.name)' (\(invariant.owner)) broke in seed \(found.seed) at "
                    + "\(shrunk.time) s: \(invariant.actual), expected \(invariant.expected)"))
        print("shrunk from \(found.actions.count) to \(shrunk.actions.count) actions:")
        for action in report.shrunkShown { print(TerminalText.escape("  \(action)")) }
        print(TerminalText.escape("written: \(file) (rehearse run \(file) reproduces it)"))
    }

    /// Runs the shrunk failure's scenario file as `rehearse run --report` does (its command plugins
    /// started anew by `plugins`) and writes its report.
    private func writeReport(of file: String, into folder: String, plugins: CommandPluginHost) throws {
        var runner = ScenarioRunner(registry: Tool.registry)
        runner.commandStarter = plugins
        runner.budget = budget.budget
        runner.rendering = ScenarioRunner.Rendering(filmstripFrames: 0, picturesEachStep: true)
        var events = HTMLReport.Events()
        let result = runner.run(file: file) { events.add($0) }
        let index = try ReportFolder.write([HTMLReport.Entry(result: result, events: events)], to: folder)
        if format == .text { print("report: \(index)") }
    }

    /// Writes the shrunk failure as a scenario file into `--out` and returns its path: as
    /// `SCENARIO-seed-S.yaml` (SCENARIO cut at ``maximumBaseLength`` characters), or (when a file
    /// of that name holds something else and `--force` is not given) the first of
    /// `SCENARIO-seed-S-2.yaml`, `-3`, ... that is free or holds the same text. A file kept is said on standard error; nothing inside `--out` is followed (``OutputFolder``).
    private func write(_ shrunk: Explorer.Failure, explorer: Explorer) throws -> String {
        let base = URL(fileURLWithPath: scenario).deletingPathExtension().lastPathComponent
        let safeBase = String(
            base.unicodeScalars.prefix(Self.maximumBaseLength)
                .map {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0))
                        ? Character($0) : "_"
                })
        let text = Data(try explorer.scenarioText(for: shrunk).utf8)
        let names = (1...Self.maximumNameAttempts).map { "\(safeBase)-seed-\(shrunk.seed)\($0 == 1 ? "" : "-\($0)").yaml" }
        do {
            let (path, kept) = try Self.write(text, into: OutputFolder(creating: out), asFirstOf: names, replacing: force)
            for file in kept {
                FileHandle.standardError.write(
                    Data(
                        TerminalText.escape("rehearse explore: kept \(file), which holds another scenario (--force replaces it)")
                            .utf8 + [0x0A]))
            }
            return path
        } catch {
            throw ValidationError("cannot write the shrunk scenario into \(out): \(error)")
        }
    }

    /// Writes `text` as the first of `names` that is free or holds it already (any of them, first,
    /// when `replacing`); returns its path and those of the files kept on the way.
    private static func write(
        _ text: Data, into folder: OutputFolder, asFirstOf names: [String],
        replacing: Bool
    ) throws(OutputError) -> (path: String, kept: [String]) {
        var kept: [String] = []
        for name in names {
            if folder.contents(of: name, limit: text.count) == text { return (folder.fullPath(name), kept) }
            let result = Result { () throws(OutputError) in
                try folder.write(text, to: name, existing: replacing ? .atomically : .never)
            }
            switch result {
            case .success(let path): return (path, kept)
            case .failure(.exists(let path)): kept.append(path)
            case .failure(let error): throw error
            }
        }
        throw .exists(kept.last ?? folder.path)
    }

    /// The most names tried for one failure before giving up (`NAME.yaml`, `NAME-2.yaml`, ...).
    static let maximumNameAttempts = 100
    /// The most characters of the explored file's name that start the written file's: with
    /// `-seed-S-N.yaml` (at most 35 more) well under the 255 bytes a file name may have.
    static let maximumBaseLength = 100

    private static func rate(_ count: Int, since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int {
        let seconds = (clock.now - start).inSeconds
        return seconds > 0 ? Int(Double(count) / seconds) : 0
    }
}
