import ArgumentParser
import Foundation
import RehearseScenario

/// `rehearse run --watch`: runs the selected files, then, on each save, the files that changed,
/// the new ones and those whose golden pictures (`__pictures__/<file name>/`) changed, printing
/// each run's failures in full and one summary line; until a signal ends it (status 0).
struct RunWatch {
    /// The most files one run of a watch takes.
    static let maximumFiles = 10_000

    let selection: ScenarioSelection

    /// Watches the paths' folders, runs `first`, then runs again on every change through `running`
    /// (which runs files and gives their results in order); returns only by throwing.
    func run(first: [String], _ running: ([String]) async -> [ScenarioResult]) async throws {
        let watcher = try FolderWatcher()
        for path in selection.paths { try watchFolders(of: path, with: watcher) }
        var known = first
        await report(1, first, running)
        say("watching \(watcher.count) folder(s) for changes; Ctrl-C to stop")
        for runNumber in 2... {
            var again: [String] = []
            while again.isEmpty {
                let changes = watcher.next()
                for warning in changes.warnings { FileHandle.standardError.write(Data("rehearse run: \(warning)\n".utf8)) }
                let files: [String]
                do {
                    files = try ScenarioFiles.collect(selection.paths).filter(selection.selects)
                } catch {
                    FileHandle.standardError.write(Data("rehearse run: \(TerminalText.escape("\(error)"))\n".utf8))
                    continue
                }
                let changed = Set(changes.paths.flatMap(Self.scenarioFiles(concernedBy:)))
                let old = Set(known)
                again = changes.overflowed ? files : files.filter { !old.contains($0) || changed.contains(Self.standard($0)) }
                known = files
            }
            await report(runNumber, again, running)
        }
    }

    /// Watches the folder at `path` and everything under it; or for a file, its folder and the
    /// golden pictures in it.
    private func watchFolders(of path: String, with watcher: FolderWatcher) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            return try watcher.watch(path, recursive: true)
        }
        let folder = (path as NSString).deletingLastPathComponent
        try watcher.watch(folder.isEmpty ? "." : folder, recursive: false)
        try watcher.watch(
            ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(PictureReferences.folderName),
            recursive: true)
    }

    /// Runs `files` and prints their failures in full and a summary line.
    private func report(_ number: Int, _ files: [String], _ running: ([String]) async -> [ScenarioResult]) async {
        guard files.count <= Self.maximumFiles else {
            return say(
                "run \(number): \(files.count) files; a watch runs at most \(Self.maximumFiles) at once (the limit): watch fewer")
        }
        let results = await running(files)
        let text = TextReport(colour: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        for result in results {
            if case .passed = result.outcome { continue }
            print(text.render(result))
        }
        let summary = RunSummary(results, notRun: files.count - results.count)
        say("run \(number): \(files.count) file(s): " + summary.line.split(separator: "\n").joined(separator: "; "))
    }

    /// Prints `line` at once (standard output is a pipe's whole buffer otherwise).
    private func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// The scenario files a changed path concerns, as ``standard(_:)`` paths: the path itself, and
    /// for a golden picture `F/__pictures__/NAME/...`, `F/NAME.yaml` and `F/NAME.yml`.
    private static func scenarioFiles(concernedBy path: String) -> [String] {
        let parts = standard(path).split(separator: "/", omittingEmptySubsequences: false)
        guard let pictures = parts.lastIndex(of: Substring(PictureReferences.folderName)), pictures + 1 < parts.count else {
            return [standard(path)]
        }
        let scenario = parts[..<pictures].joined(separator: "/") + "/" + parts[pictures + 1]
        return [scenario + ".yaml", scenario + ".yml"]
    }

    /// `path` absolute and without `.` or `..`, to compare what an event names with what was collected.
    private static func standard(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
