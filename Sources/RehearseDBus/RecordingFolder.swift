import Foundation

/// Where `rehearse serve --record DIR` writes sessions' recordings: plain file names in that
/// folder only, so no name a client gives reaches a path outside it.
struct RecordingFolder: Sendable {
    let url: URL

    /// A recording's name: 1 to 100 letters, digits, `.`, `_` and `-`, not starting with a dot.
    static func isValidName(_ name: String) -> Bool {
        (1...100).contains(name.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// Writes `text` as `NAME.yaml` (replacing one of that name) and returns its path.
    func write(_ text: String, name: String) throws(MethodFailure) -> String {
        guard Self.isValidName(name) else {
            throw MethodFailure(SimulatorError.invalidArgs, "'\(name)' is not a recording name (1 to 100 of A-Z a-z 0-9 . _ -, no leading dot)")
        }
        let file = url.appending(path: "\(name).yaml")
        do {
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw MethodFailure(SimulatorError.notPermitted, "cannot write \(file.path): \(error.localizedDescription)")
        }
        return file.path
    }
}
