import Foundation
import RehearseCore

/// The golden pictures of one scenario file, in its folder: `__pictures__/<file name>/NAME.json`
/// (the file name less `.yaml`), the drawing an `expect-picture: NAME` step compares with, and
/// `NAME.svg` beside it for people to look at. Written only with `rehearse run --update-pictures`,
/// through ``OutputFolder`` (no link inside the scenario's folder is followed).
public struct PictureReferences: Sendable {
    /// The folder, beside the scenario files, that holds their references.
    public static let folderName = "__pictures__"
    /// The largest reference file read, in bytes (a 10,000-node scene's drawing is about 2 MiB).
    public static let maximumBytes = 8 << 20
    /// The most bytes of references one run reads, summed over its `expect-picture` steps (four
    /// references of the largest size): a reference that differs is held, decoded, until the run's
    /// failures and diff pictures are written, so many steps naming a large reference must not
    /// take memory without bound. Past it the run stops with an error at the step.
    public static let maximumBytesPerRun = 32 << 20

    /// The scenario's folder.
    public let scenarioFolder: String
    /// `__pictures__/<file name>`, relative to ``scenarioFolder``.
    public let folder: String

    /// What reading a reference found.
    public enum Reading: Sendable {
        case missing
        case unreadable(String)
        case drawing(PictureDrawing)
    }

    /// The references of the scenario at `scenarioFile`, or nil when its file name (less `.yaml`)
    /// is not a plain file name (``PlainFileName``), which the folder's name must be.
    public init?(scenarioFile: String) {
        let url = URL(fileURLWithPath: scenarioFile)
        var stem = url.lastPathComponent
        for suffix in [".yaml", ".yml"] where stem.hasSuffix(suffix) { stem.removeLast(suffix.count) }
        guard PlainFileName.isValid(stem) else { return nil }
        scenarioFolder = url.deletingLastPathComponent().path
        folder = Self.folderName + "/" + stem
    }

    /// The command that records (accepts) the golden pictures of the scenario file at `file`:
    /// `rehearse run --update-pictures FILE`, the path quoted for a POSIX shell when it holds more
    /// than letters, digits and `_./@%+=:,-`.
    public static func updateCommand(for file: String) -> String {
        let plain =
            !file.isEmpty
            && file.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_./@%+=:,-".unicodeScalars.contains($0))
            }
        return "rehearse run --update-pictures " + (plain ? file : "'" + file.replacingOccurrences(of: "'", with: #"'\''"#) + "'")
    }

    /// `__pictures__/<file name>/NAME.json`, relative to the scenario's folder.
    public func relativePath(of name: String) -> String {
        folder + "/" + name + ".json"
    }

    /// The reference called `name`; the bytes read are added to `bytesRead`.
    public func read(_ name: String, counting bytesRead: inout Int) -> Reading {
        let path = (scenarioFolder as NSString).appendingPathComponent(relativePath(of: name))
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let folder = try? OutputFolder(existing: scenarioFolder),
            let data = folder.contents(of: relativePath(of: name), limit: Self.maximumBytes)
        else {
            return .unreadable("\(path) is not a regular file of at most \(Self.maximumBytes) bytes")
        }
        bytesRead += data.count
        do {
            return .drawing(try PictureDrawing(json: data))
        } catch {
            return .unreadable("\(path) is not a drawing: \(error)")
        }
    }

    /// Records `drawing` as the reference `name`, with `svg` beside it; returns the reference's path.
    @discardableResult
    public func write(_ name: String, drawing: PictureDrawing, svg: String) throws(OutputError) -> String {
        let folder = try OutputFolder(existing: scenarioFolder)
        try folder.write(Data(svg.utf8), to: self.folder + "/" + name + ".svg")
        return try folder.write(Data(drawing.json.utf8), to: relativePath(of: name))
    }

    /// The references recorded that no `expect-picture` step of `scenario` names, sorted, as
    /// their paths relative to the scenario's folder (`rehearse validate` reports them).
    public func stale(for scenario: Scenario) -> [String] {
        let used = Set(
            scenario.steps.compactMap { step -> String? in
                if case .expectPicture(let name, _) = step.action { return name }
                return nil
            })
        return recordedNames().filter { !used.contains($0) }.map(relativePath(of:))
    }

    /// The names of the references recorded, sorted; a link planted as a folder on the way is not followed.
    private func recordedNames() -> [String] {
        let files = (try? OutputFolder(existing: scenarioFolder))?.names(in: folder) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(PlainFileName.isValid).sorted()
    }
}
