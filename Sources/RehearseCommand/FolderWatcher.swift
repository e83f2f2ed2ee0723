import ArgumentParser
import Foundation
import RehearseScenario

/// Folders watched through Linux inotify, for `run --watch`: folders, not files, so that an
/// editor's save (a temporary file renamed over the old one) and a new file are both seen. Each
/// folder is watched once (by device and inode) and never through a symbolic link, so a link
/// loop is walked once; at most ``maximumFolders``.
final class FolderWatcher {
    /// The most folders one watch holds (each costs one of the system's inotify watches, 8,192
    /// by default on older kernels for all of a user's programs).
    static let maximumFolders = 1_000
    /// How long the folders must stay quiet after a change before it is reported: an editor
    /// saves in several steps.
    static let quietTime: Int32 = 100  // milliseconds
    /// The longest a stream of changes is gathered before it is reported all the same.
    static let longestGathering: Duration = .seconds(2)

    /// What changed since the last ``next()``.
    struct Changes {
        /// Every path an event named (files written, moved in or out, removed; folders made).
        var paths: Set<String> = []
        /// The system dropped events (its queue was full): anything may have changed.
        var overflowed = false
        /// What could not be watched, for the user.
        var warnings: [String] = []
    }

    private struct Folder {
        let path: String
        /// Whether the folders made in it are watched too.
        let recursive: Bool
    }

    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private let descriptor: Int32
    private var folders: [Int32: Folder] = [:]
    private var identities: [Identity: Int32] = [:]
    /// What a watch reports: a file written and closed, moved in or out, made or removed.
    private static let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    /// How many folders are watched.
    var count: Int { folders.count }

    init() throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw ValidationError("--watch: cannot use inotify: \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(descriptor)
    }

    /// Watches the folder at `path` (itself possibly a symbolic link), and when `recursive` every
    /// folder under it reached without one. Past ``maximumFolders``, or when the system refuses a
    /// watch, throws naming the folder.
    func watch(_ path: String, recursive: Bool) throws(ValidationError) {
        var pending = [(path: path, followLink: true)]
        while let (folder, followLink) = pending.popLast() {
            var status = stat()
            guard (followLink ? stat(folder, &status) : lstat(folder, &status)) == 0,
                status.st_mode & S_IFMT == S_IFDIR
            else { continue }
            let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            guard identities[identity] == nil else { continue }
            guard folders.count < Self.maximumFolders else {
                throw ValidationError(
                    "--watch: more than \(Self.maximumFolders) folders to watch (the limit) at \(folder); "
                        + "watch a smaller folder")
            }
            let mask = Self.events | UInt32(IN_ONLYDIR) | (followLink ? 0 : UInt32(IN_DONT_FOLLOW))
            let watch = inotify_add_watch(descriptor, folder, mask)
            guard watch >= 0 else {
                let reason =
                    errno == ENOSPC
                    ? "the system's limit of inotify watches is reached (fs.inotify.max_user_watches)"
                    : String(cString: strerror(errno))
                throw ValidationError("--watch: cannot watch \(folder): \(reason)")
            }
            folders[watch] = Folder(path: folder, recursive: recursive)
            identities[identity] = watch
            if recursive { pending += Self.subfolders(of: folder).map { ($0, false) } }
        }
    }

    /// The folders in `folder`, symbolic links left out.
    private static func subfolders(of folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let type = entry.pointee.d_type
            guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            found.append((folder as NSString).appendingPathComponent(name))  // lstat'ed by the walk
        }
        return found
    }

    /// Waits for a change, then gathers the changes that follow until the folders are quiet for
    /// ``quietTime`` (or ``longestGathering`` has passed); folders made meanwhile in a recursive
    /// folder, or named `__pictures__`, are watched too.
    func next() -> Changes {
        var changes = Changes()
        var gathering: ContinuousClock.Instant?
        while true {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let timeout = gathering == nil ? -1 : Self.quietTime
            let ready = poll(&request, 1, timeout)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return changes }  // quiet (or poll failed: report what there is)
            read(into: &changes)
            let start = gathering ?? .now
            gathering = start
            if ContinuousClock.now - start > Self.longestGathering { return changes }
        }
    }

    /// Reads the events waiting and notes them in `changes`.
    private func read(into changes: inout Changes) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                (
                    bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                    bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                    Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                )
            }
            let name = String(
                decoding: buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 },
                as: UTF8.self)
            offset += header + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { changes.overflowed = true }
            if mask & UInt32(IN_IGNORED) != 0, let folder = folders.removeValue(forKey: watch) {
                identities = identities.filter { $0.value != watch }
                changes.paths.insert(folder.path)
            }
            guard let folder = folders[watch], !name.isEmpty else { continue }
            let path = (folder.path as NSString).appendingPathComponent(name)
            changes.paths.insert(path)
            let madeFolder = mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
            if madeFolder, folder.recursive || name == PictureReferences.folderName {
                do {
                    try self.watch(path, recursive: true)
                } catch {
                    changes.warnings.append(error.message)
                }
            }
        }
    }
}
