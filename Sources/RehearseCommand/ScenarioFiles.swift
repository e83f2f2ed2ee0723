import ArgumentParser
import Foundation
import RehearseScenario

/// The scenario files named on the command line: files as given, folders searched recursively
/// for `.yaml` and `.yml` (not named pipes, sockets or devices), in a stable (sorted) order.
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
                let file = (path as NSString).appendingPathComponent(relative)
                if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml"), !isStream(file) {
                    found.append(file)
                }
            }
            files += found.sorted()
        }
        guard !files.isEmpty else { throw ValidationError("no scenario files (.yaml, .yml) in \(paths.joined(separator: ", "))") }
        return files
    }

    /// Whether `path` is (or links to) a named pipe, a socket or a device: not a scenario file when
    /// a folder holds it, since reading a pipe that a program holds open and never writes to waits
    /// for ever (named on the command line, it is read: `rehearse run <(cat x.yaml)`).
    private static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return [S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK].contains(status.st_mode & S_IFMT)
    }

    /// Refuses an output path that is one of the input files (`--trace X X` would replace X): the
    /// same path once resolved, or the same file under another name (a hard link).
    static func refuseOverwriting(_ files: [String], with output: String, option: String) throws {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        let identity = FileIdentity(path: output)
        for file in files
        where URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path == target
            || (identity != nil && FileIdentity(path: file) == identity)
        {
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
