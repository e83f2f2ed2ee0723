import Foundation
import RehearseCore
import RehearseDBusInterface
import Synchronization

/// Where `rehearse serve --record DIR` writes sessions' recordings: plain file names in that
/// folder only, so no name a client gives reaches a path outside it; no more bytes in all than
/// ``maximumFolderBytes``, so no client fills the disk; and a name `Record` wrote is that
/// session's while it is open, which no other session may write over. One folder serves every
/// session of a service, from their threads.
final class RecordingFolder: Sendable {
    /// The most bytes the folder's files may hold together; a recording that would pass it is
    /// refused with `org.rehearse.Error.Limit`.
    static let maximumFolderBytes = 256 << 20
    /// The most recordings one session may write with `Record` (names it has not written before);
    /// rewriting one of its own names does not count again.
    static let maximumRecordsPerSession = 16

    let url: URL
    /// Which open session wrote each name with `Record`: a session's names are given back when it
    /// ends (``release(by:)``), so this holds at most ``maximumRecordsPerSession`` names for each
    /// open session.
    private let claims = Mutex<[String: String]>([:])

    init(url: URL) {
        self.url = url
    }

    /// Whether `name` is one the service writes when a session ends (`default`, `session-N`),
    /// which `Record` may not take.
    static func isEndOfSessionName(_ name: String) -> Bool {
        name == "default" || (name.hasPrefix("session-") && name.dropFirst("session-".count).allSatisfy(\.isNumber))
    }

    /// `Record(name)` from the session at `session`: writes `NAME.yaml` unless the name is no
    /// recording name, one the service writes at a session's end, or another session's, and
    /// returns its path. A name is claimed only once it is checked, and given back when its first
    /// write fails, so a refused call claims nothing.
    func record(_ text: String, name: String, by session: String) throws(MethodFailure) -> String {
        try Self.check(name)
        guard !Self.isEndOfSessionName(name) else {
            throw MethodFailure(
                SimulatorError.notPermitted, "'\(name)' is the name of a session's recording at its end: choose another")
        }
        let (owner, claimed) = claims.withLock { claims in
            guard let owner = claims[name] else {
                claims[name] = session
                return (session, true)
            }
            return (owner, false)
        }
        guard owner == session else {
            throw MethodFailure(SimulatorError.notPermitted, "'\(name)' is another session's recording: choose another name")
        }
        do {
            return try write(text, name: name)
        } catch {
            if claimed { _ = claims.withLock { $0.removeValue(forKey: name) } }
            throw error
        }
    }

    /// Gives back the names the session at `session` wrote with `Record`, at its end: another
    /// session may write them from then on.
    func release(by session: String) {
        claims.withLock { claims in claims = claims.filter { $0.value != session } }
    }

    /// Refuses `name` unless it is a plain file name (``PlainFileName``).
    private static func check(_ name: String) throws(MethodFailure) {
        guard PlainFileName.isValid(name) else {
            throw MethodFailure(SimulatorError.invalidArgs, "'\(name)' is not a recording name (\(PlainFileName.rule))")
        }
    }

    /// Writes `text` as `NAME.yaml` (replacing one of that name) and returns its path; refused
    /// when the folder would hold more than ``maximumFolderBytes``. A session's recording at its
    /// end comes here directly.
    func write(_ text: String, name: String) throws(MethodFailure) -> String {
        try Self.check(name)
        let file = url.appending(path: "\(name).yaml")
        let data = Data(text.utf8)
        let held = bytesHeld(besides: file)
        guard held + data.count <= Self.maximumFolderBytes else {
            throw MethodFailure(
                SimulatorError.limit,
                "the recordings folder holds \(held) bytes; \(data.count) more would pass its limit of \(Self.maximumFolderBytes)"
            )
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
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return total }
            return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
