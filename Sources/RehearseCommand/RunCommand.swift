import ArgumentParser
import Foundation
import RehearseCore
import RehearsePluginHost
import RehearseScenario

/// The report formats of `rehearse run`.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    /// `jsonl`: one JSON object per scenario and line, so shards' reports merge by concatenation.
    case text, json, jsonl, junit
}

/// `rehearse run PATH...`: runs scenario files and reports like a test runner.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenario files (folders are searched recursively) and check their expectations.",
        discussion: "Exit status: 0 when every scenario passed, 1 when an expectation failed, 2 for invalid input or usage.")

    @Argument(help: "Scenario files or folders.")
    var paths: [String]

    @Option(help: "Report format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (jsonl: a line per scenario).")
    var format: ReportFormat = .text

    @Option(help: "Write every delivered event to this file as JSON Lines.")
    var trace: String?

    @Option(help: "How many files to run at once.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Write SVG pictures here: a filmstrip per scenario, one per snapshot step, and plots.")
    var render: String?

    @Option(help: "A path to plot over time into the render folder or the report (repeatable; needs --render or --report).")
    var plot: [String] = []

    @Option(
        help:
            "Write an HTML report here (a new or empty folder, or one a report was written to): index.html, and per scenario its failures, pictures, timeline and events."
    )
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Run only part K of N of the files (K from 1), for a CI matrix: N runs with K = 1...N run each file once.",
            discussion: "Without it, read from REHEARSE_SHARD=K/N, GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, CircleCI's "
                + "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, Buildkite's BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT, or a "
                + "Kubernetes indexed Job's JOB_COMPLETION_INDEX with REHEARSE_SHARD_COUNT.",
            valueName: "K/N"))
    var shard: Shard?

    @Flag(
        help: "Record the golden pictures of expect-picture steps that are missing or differ, instead of failing, and say which.")
    var updatePictures = false

    @Option(help: "How far, in points, a drawn frame may be from its golden picture's where the step does not say.")
    var pictureTolerance: Double = PictureComparison.defaultTolerance

    @Option(
        help: ArgumentHelp(
            "Run only the scenarios whose name or path PATTERN matches (repeatable: any of them).",
            discussion:
                "A regular expression found anywhere in the name or the path, case-sensitive, as with `swift test --filter`: "
                + "a plain word selects the names and paths that hold it. One that is not an expression (`login(`) is taken as "
                + "plain text. A filter that selects nothing exits with 2.",
            valueName: "PATTERN"))
    var filter: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Print the scenarios that would run (after --filter and --shard), a line each: its name, a tab, its path; run nothing.",
            discussion: "Each file is loaded as `validate` does: invalid ones are reported, and the exit status is 2."))
    var list = false

    @Flag(
        help: ArgumentHelp(
            "Stop at the first scenario that does not pass (failed, invalid or stopped at a budget).",
            discussion: "No file starts after it; with --jobs N the files already running finish and are reported. "
                + "The summary says how many were not run."))
    var failFast = false

    @Flag(
        help: ArgumentHelp(
            "Run, then run again on save the files that changed and those that use a changed golden picture, until Ctrl-C.",
            discussion: "Prints failures in full and a summary line per run; new files in a watched folder are picked up. "
                + "Watches at most \(FolderWatcher.maximumFolders) folders (not through symbolic links) and runs at most "
                + "\(RunWatch.maximumFiles) files. Ctrl-C ends it with exit status 0."))
    var watch = false
    @Flag(
        help:
            "Settle after every step that can start motion, in every file, as settle: auto does for one (Scenarios/README.md, \"Waiting for the screen\")."
    )
    var settle = false

    @OptionGroup var budget: BudgetOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard plot.isEmpty || render != nil || report != nil else {
            throw ValidationError("--plot needs --render DIR or --report DIR")
        }
        guard (0...ScenarioLimits.deviceLength).contains(pictureTolerance) else {
            throw ValidationError("--picture-tolerance must be from 0 to \(ScenarioLimits.deviceLength.shortDescription) points")
        }
        _ = try patterns()
        guard !list || (trace == nil && report == nil && render == nil && !updatePictures && !failFast && !watch) else {
            throw ValidationError(
                "--list runs nothing: it takes no --trace, --report, --render, --update-pictures, --fail-fast or --watch")
        }
        guard !watch || (format == .text && trace == nil && report == nil && render == nil && shard == nil && !updatePictures)
        else {
            throw ValidationError(
                "--watch reports to the terminal and runs every selected file: it takes no --format but text, "
                    + "--trace, --report, --render or --shard, nor --update-pictures (a recorded picture would run its file again)"
            )
        }
    }

    /// The `--filter` patterns.
    private func patterns() throws -> [NamePattern] {
        try filter.map { text throws(ValidationError) in try NamePattern(text) }
    }

    func run() async throws {
        let selection = ScenarioSelection(paths: paths, patterns: try patterns())
        var files = try selection.files()
        if !watch, let shard = try shard ?? Shard.fromEnvironment(ProcessInfo.processInfo.environment) {
            let all = files.count
            files = shard.select(files)
            FileHandle.standardError.write(Data("rehearse run: shard \(shard): \(files.count) of \(all) file(s)\n".utf8))
        }
        if list {
            return try ScenarioChecks.load(files) { file, scenario in
                print(TerminalText.escape(scenario.name) + "\t" + TerminalText.escape(file))
            }
        }
        if let trace { try ScenarioFiles.refuseOverwriting(files, with: trace, option: "--trace") }
        try ReportFolder.check(report)
        var configured = ScenarioRunner(registry: Tool.registry)
        configured.budget = budget.budget
        configured.settlesAfterSteps = settle
        configured.pictures = ScenarioRunner.PictureOptions(update: updatePictures, tolerance: pictureTolerance)
        let commandPlugins = CommandPluginHost()
        if watch {
            StopSignal.endingPluginsAndSucceeding(of: commandPlugins)
        } else {
            StopSignal.endingPlugins(of: commandPlugins)
        }
        defer { commandPlugins.stopAll() }
        configured.commandStarter = commandPlugins
        if render != nil || report != nil {
            // The report shows the scene after each step; only --render draws a filmstrip.
            configured.rendering = ScenarioRunner.Rendering(
                filmstripFrames: render == nil ? 0 : 24, plotPaths: plot,
                picturesEachStep: report != nil)
        }
        // The report shows what `rehearse audit` would find.
        configured.audits = report != nil
        let runner = configured
        guard !watch else {
            return try await RunWatch(selection: selection).run(first: files) { files in
                // Each run's plugin programs end with it: a watch runs for hours.
                defer { commandPlugins.stopAll() }
                return await execute(files.map { ($0, nil) }, with: runner, reports: false, progress: false).map(\.0)
            }
        }
        let code = try await runAll(files, with: runner)
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs `files` and reports them as the options ask; returns the exit status.
    private func runAll(_ files: [String], with runner: ScenarioRunner) async throws -> Int32 {
        let terminal = isatty(STDOUT_FILENO) == 1
        let progress = isatty(STDERR_FILENO) == 1 && files.count > 1 && format == .text
        let spoolFolder = try trace.map { _ in try TemporaryFolder() }
        let spools = spoolFolder.map { folder in
            files.indices.map { TraceSpool(folder: folder, index: $0, scenario: files.count > 1 ? files[$0] : nil) }
        }
        let runs = await execute(
            files.indices.map { (files[$0], spools?[$0]) }, with: runner, reports: report != nil,
            progress: progress)
        let results = runs.map(\.0)
        let summary = RunSummary(results, notRun: files.count - results.count)
        switch format {
        case .text:
            let report = TextReport(colour: terminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
            for result in results { print(report.render(result)) }
            print(summary.line)
        case .json:
            print(JSONReport.render(results))
        case .jsonl:
            for line in JSONReport.lines(results) { print(line) }
        case .junit:
            print(JUnitReport.render(results, reportFolder: report), terminator: "")
        }
        for result in results {
            for note in result.notes { FileHandle.standardError.write(Data("note: \(result.file): \(note)\n".utf8)) }
        }
        if let trace, let spools { try writeTrace(spools, to: trace, sparing: files) }
        if let render {
            do {
                let files = try RenderFiles.write(results, to: render)
                if format == .text { print("rendered \(files.count) file(s) into \(render)") }
            } catch {
                throw ValidationError("cannot write pictures into \(render): \(error)")
            }
        }
        if let report {
            let index = try ReportFolder.write(runs.map { HTMLReport.Entry(result: $0.0, events: $0.1) }, to: report)
            if format == .text { print("report: \(index)") }
        }
        return summary.exitCode
    }

    /// Runs the files, at most `--jobs` at once, each delivering its events to its spool if it has
    /// one, and to the report's events when `reports`; with `--fail-fast` none starts after one
    /// that did not pass. The results are in the files' order.
    private func execute(
        _ inputs: [(file: String, spool: TraceSpool?)], with runner: ScenarioRunner, reports: Bool,
        progress: Bool
    ) async -> [(ScenarioResult, HTMLReport.Events)] {
        let runs = await ParallelRuns.run(inputs, jobs: jobs) { input in
            input.spool?.claim()
            defer { input.spool?.finish() }
            var events = HTMLReport.Events()
            let spool = input.spool
            let delivered: ((DeliveredEvent) -> Void)? =
                switch (spool, reports) {
                case (nil, false): nil
                case (let spool?, false): { spool.append($0.traceLine) }
                case (let spool, true):
                    { event in
                        spool?.append(event.traceLine)
                        events.add(event)
                    }
                }
            let result = runner.run(file: input.file, delivered: delivered)
            return (result, events)
        } stops: { run in
            if case .passed = run.0.outcome { return false }
            return failFast
        } progress: { done in
            if progress { FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(inputs.count)]".utf8)) }
        }
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return runs
    }

    /// One file's trace as it is; several files' traces one after the other, each line tagged with
    /// `"scenario"`, copied from their spools.
    private func writeTrace(_ spools: [TraceSpool], to path: String, sparing files: [String]) throws {
        let output = try ScenarioFiles.open(path, option: "--trace", sparing: files)
        do {
            for spool in spools {
                spool.claim()  // its job has ended
                try spool.copy(to: output)
            }
            try output.close()
        } catch {
            throw ValidationError("--trace: \(error)")
        }
    }
}
