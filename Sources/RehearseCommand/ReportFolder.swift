import ArgumentParser
import RehearseScenario

/// The folder of `--report DIR` (`run`, `explore`): checked before anything runs, so that a folder
/// rehearse did not write (`--report /`) or a symbolic link is refused with nothing written, and
/// written at the end; either failure is a usage error (exit 2) that names the folder.
enum ReportFolder {
    /// Refuses `folder`, when given, as ``HTMLReport/write(_:to:)`` would.
    static func check(_ folder: String?) throws {
        guard let folder else { return }
        do {
            try HTMLReport.check(folder: folder)
        } catch {
            throw failure(folder, error)
        }
    }

    /// Writes the report of `entries` into `folder` and returns the index's path.
    static func write(_ entries: [HTMLReport.Entry], to folder: String) throws -> String {
        do {
            return try HTMLReport.write(entries, to: folder)
        } catch {
            throw failure(folder, error)
        }
    }

    private static func failure(_ folder: String, _ error: OutputError) -> ValidationError {
        ValidationError("cannot write the report into \(folder): \(error)")
    }
}
