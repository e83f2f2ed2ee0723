import ArgumentParser
import Foundation
import RehearseScenario

/// The scenario files a `rehearse run` takes: those under its paths (``ScenarioFiles``) whose name
/// or path one of its `--filter` patterns matches, all of them without a pattern.
struct ScenarioSelection {
    let paths: [String]
    let patterns: [NamePattern]

    /// The files, in their stable order. A filter that selects none is an error: the run would
    /// otherwise pass having checked nothing (the exit status is 2; pytest's is 5).
    func files() throws -> [String] {
        let all = try ScenarioFiles.collect(paths)
        let files = all.filter(selects)
        guard !files.isEmpty else {
            let patterns = patterns.map { "'\(TerminalText.escape($0.description))'" }.joined(separator: ", ")
            FileHandle.standardError.write(
                Data(
                    ("rehearse run: --filter \(patterns) selects none of the \(all.count) "
                        + "scenario file(s) (a pattern is matched anywhere in a scenario's name or path)\n").utf8))
            throw ExitCode(2)
        }
        return files
    }

    /// Whether the file at `path` is selected: no pattern, or one that matches its path or the
    /// name it gives itself (read without loading the rest of the file).
    func selects(_ path: String) -> Bool {
        guard !patterns.isEmpty else { return true }
        if patterns.contains(where: { $0.matches(path) }) { return true }
        guard let name = ScenarioLoader.name(ofFile: path) else { return false }
        return patterns.contains { $0.matches(name) }
    }
}
