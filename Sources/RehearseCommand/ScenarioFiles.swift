import ArgumentParser
import Foundation

/// The scenario files named on the command line: files as given, folders searched recursively
/// for `.yaml` and `.yml`, in a stable (sorted) order.
enum ScenarioFiles {
    static func collect(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("no such file or folder: \(path)")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let enumerator = FileManager.default.enumerator(atPath: path)
            var found: [String] = []
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                    found.append((path as NSString).appendingPathComponent(relative))
                }
            }
            files += found.sorted()
        }
        guard !files.isEmpty else { throw ValidationError("no scenario files (.yaml, .yml) in \(paths.joined(separator: ", "))") }
        return files
    }

    /// Refuses an output path that is one of the input files (`--trace X X` would replace X).
    static func refuseOverwriting(_ files: [String], with output: String, option: String) throws {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        for file in files where URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path == target {
            throw ValidationError("\(option) \(output) is a scenario file this run reads; give another path")
        }
    }
}
