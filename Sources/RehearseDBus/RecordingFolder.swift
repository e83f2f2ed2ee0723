import Foundation

/// Where `rehearse serve --record DIR` writes sessions' recordings: plain file names in that
/// folder only, so no name a client gives reaches a path outside it, and no more bytes in all
/// than ``maximumFolderBytes``, so no client fills the disk.
struct RecordingFolder: Sendable {
    /// The most bytes the folder's files may hold together; a recording that would pass it is
    /// refused with `org.rehearse.Error.Limit`.
    static let maximumFolderBytes = 256 << 20
    /// The most recordings one session may write with `Record` (names it has not written before);
    /// rewriting one of its own names does not count again.
    static let maximumRecordsPerSession = 16

    let url: URL

    /// A recording's name: 1 to 100 letters, digits, `.`, `_` and `-`, not starting with a dot.
    static func isValidName(_ name: String) -> Bool {
        (1...100).contains(name.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// Writes `text` as `NAME.yaml` (replacing one of that name) and returns its path; refused
    /// when the folder would hold more than ``maximumFolderBytes``.
    func write(_ text: String, name: String) throws(MethodFailure) -> String {
        guard Self.isValidName(name) else {
            throw MethodFailure(SimulatorError.invalidArgs, "'\(name)' is not a recording name (1 to 100 of A-Z a-z 0-9 . _ -, no leading dot)")
        }
        let file = url.appending(path: "\(name).yaml")
        let data = Data(text.utf8)
        let held = bytesHeld(besides: file)
        guard held + data.count <= Self.maximumFolderBytes else {
            throw MethodFailure(SimulatorError.limit,
                                "the recordings folder holds \(held) bytes; \(data.count) more would pass its limit of \(Self.maximumFolderBytes)")
        }
        do {
            try data.write(to: file, options: .atomic)
        } catch {
            throw MethodFailure(SimulatorError.notPermitted, "cannot write \(file.path): \(error.localizedDescription)")
        }
        return file.path
    }

    /// The bytes of the folder's files (links not followed, subfolders not entered), but `file`'s,
    /// which a write replaces.
    private func bytesHeld(besides file: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.reduce(0) { total, name in
            guard name != file.lastPathComponent,
                  let attributes = try? FileManager.default.attributesOfItem(atPath: url.appending(path: name).path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { return total }
            return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
