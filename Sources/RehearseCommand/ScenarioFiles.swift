import ArgumentParser
import Foundation
import RehearseScenario

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

    /// Refuses an output path that is one of the input files (`--trace X X` would replace X): the
    /// same path once resolved, or the same file under another name (a hard link).
    static func refuseOverwriting(_ files: [String], with output: String, option: String) throws {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        let identity = FileIdentity(path: output)
        for file in files where URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path == target
            || (identity != nil && FileIdentity(path: file) == identity) {
            throw ValidationError("\(option) \(output) is a scenario file this run reads; give another path")
        }
    }

    /// Writes `text` to the output file `path` named by `option`, never into one of `files`.
    static func write(_ text: String, to path: String, option: String, sparing files: [String]) throws {
        let output = try open(path, option: option, sparing: files)
        do {
            try output.write(text)
            try output.close()
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// Opens the output file `path` named by `option` for writing, unless it is one of `files`.
    static func open(_ path: String, option: String, sparing files: [String]) throws -> OutputFile {
        do {
            return try OutputFile(path: path, sparing: files.compactMap(FileIdentity.init(path:)))
        } catch .sameAsInput {
            throw ValidationError("\(option) \(path) is a scenario file this run reads; give another path")
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }
}
