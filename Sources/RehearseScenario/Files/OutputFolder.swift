import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A folder that a command writes pictures or scenario files into (`run --render`, `explore
/// --out`). The folder's own path is the user's (links on it are followed); inside it nothing is
/// followed: each subfolder is opened without following a symbolic link, and each file is written
/// to a fresh temporary file beside its final name and renamed to it, so a link planted inside
/// (as a picture or as a subfolder) is refused or replaced, and never written through.
public final class OutputFolder {
    /// What writing a file does to one already there.
    public enum Replacing: Sendable {
        /// Refused with ``OutputError/exists(_:)``.
        case never
        /// Replaced by the rename at once: whoever reads the name finds the old file or the new one.
        case atomically
        /// Removed just before the rename (whatever is put there meanwhile is still replaced): for
        /// files rewritten as a whole each run (the HTML report). Renamed over a file, ext4 writes
        /// the new one out at once (`auto_da_alloc`) and waits on the disk, which made rewriting a
        /// report folder on a busy machine take up to twice as long; the name is briefly absent.
        case removingFirst
    }

    /// The folder's path as given.
    public let path: String
    private let descriptor: Int32
    /// The subfolders made (or found) already, by their path inside the folder: not made again.
    private var made: Set<String> = []

    /// Opens the folder at `path`, creating it (and its parents) if needed.
    public init(creating path: String) throws(OutputError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .system(path, error.localizedDescription)
        }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path) }
    }

    /// Opens the folder at `path`, which must exist (a scenario's own folder, never created).
    public init(existing path: String) throws(OutputError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path) }
    }

    /// Opens the folder at `path` as one this tool owns, marked by the file `marker` in it:
    /// created (with its parents) when there is none, refused when `path` is itself a symbolic
    /// link (`link`, `link/`, `link/.` alike) or a folder that holds anything but no `marker`
    /// (``OutputError/notOwned(_:marker:)``: `--report /` never writes into `/`), or when a folder
    /// on the way to one of `relativePaths`, the files to be written, is a link. Nothing is
    /// written before these checks; then the marker is written first, so that the next run may
    /// write over what this one wrote.
    public convenience init(owned path: String, marker: String, writing relativePaths: [String] = []) throws(OutputError) {
        let path = Self.standardised(path)
        var descriptor = try Self.openOwned(path, marker: marker)
        if descriptor < 0 {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .system(path, error.localizedDescription)
            }
            descriptor = try Self.openOwned(path, marker: marker)
            guard descriptor >= 0 else { throw .system(path) }
        }
        self.init(path: path, descriptor: descriptor)
        try checkFolders(of: relativePaths)
        try write(Data("rehearse wrote this folder and writes over it\n".utf8), to: marker)
    }

    /// Refuses `path` as ``init(owned:marker:writing:)`` would, and changes nothing: a command
    /// calls it before it writes anything.
    public static func checkOwned(_ path: String, marker: String, writing relativePaths: [String] = []) throws(OutputError) {
        let path = standardised(path)
        let descriptor = try openOwned(path, marker: marker)
        guard descriptor >= 0 else { return }
        try OutputFolder(path: path, descriptor: descriptor).checkFolders(of: relativePaths)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// The folder at `path` opened without following a link, or -1 when there is none; refused
    /// when it is a link, or holds anything but no regular file named `marker`.
    private static func openOwned(_ path: String, marker: String) throws(OutputError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            var status = stat()
            if failure == ENOENT { return -1 }
            if failure == ELOOP || (lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK) { throw .linkGiven(path) }
            errno = failure
            throw .system(path)
        }
        var status = stat()
        let marked = fstatat(descriptor, marker, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFREG
        guard marked || names(ofFolder: descriptor)?.isEmpty == true else {
            close(descriptor)
            throw .notOwned(path, marker: marker)
        }
        return descriptor
    }

    /// `path` without what at its end names its last folder again, slashes and `.` (through which
    /// `open` would follow a link that is that last folder): `link/./` is `link`; `/` kept.
    private static func standardised(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") || trimmed.hasSuffix("/.") {
            trimmed.removeLast(trimmed.hasSuffix("/") ? 1 : 2)
        }
        return trimmed.isEmpty && path.hasPrefix("/") ? "/" : String(trimmed)
    }

    /// Refuses, writing nothing, a path among `relativePaths` with a symbolic link (or anything
    /// but a folder) among the folders on its way; a folder still missing is made when written.
    private func checkFolders(of relativePaths: [String]) throws(OutputError) {
        for relativePath in relativePaths {
            if let (folder, _) = try parent(of: relativePath, creating: false), folder != descriptor { close(folder) }
        }
    }

    deinit {
        close(descriptor)
    }

    /// Writes `data` to `relativePath` (names separated by `/`, created as needed) and returns the
    /// file's path; an existing file of that name is handled as `existing` says.
    @discardableResult
    public func write(_ data: Data, to relativePath: String, existing: Replacing = .atomically) throws(OutputError) -> String {
        let replacing = existing != .never
        let target = fullPath(relativePath)
        guard let (folder, name) = try parent(of: relativePath, creating: true) else { throw .system(target) }
        defer { if folder != descriptor { close(folder) } }
        let temporary = ".\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard file >= 0 else { throw .system(target) }
        var failure: OutputError?
        do throws(OutputError) {
            try writeAll(data, to: file, path: target)
        } catch {
            failure = error
        }
        if close(file) != 0, failure == nil { failure = .system(target) }
        if failure == nil, existing == .removingFirst { unlinkat(folder, name, 0) }
        if failure == nil, replacing, renameat(folder, temporary, folder, name) != 0 { failure = .system(target) }
        // Without replacing, a hard link is made only where no file is: an existing one is never replaced.
        if failure == nil, !replacing, linkat(folder, temporary, folder, name, 0) != 0 {
            failure = errno == EEXIST ? .exists(target) : .system(target)
        }
        // A rename leaves no temporary file; anything else may.
        if failure != nil || !replacing { unlinkat(folder, temporary, 0) }
        if let failure { throw failure }
        return target
    }

    /// The bytes of the regular file at `relativePath`, at most `limit`; nil when there is none, it
    /// is a link, or it cannot be read.
    public func contents(of relativePath: String, limit: Int) -> Data? {
        guard let (folder, name) = try? parent(of: relativePath, creating: false) else { return nil }
        defer { if folder != descriptor { close(folder) } }
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return try? BoundedFile.read(descriptor: file, limit: limit)
    }

    /// The names in the folder at `relativePath`, reached without following a link; nil when there
    /// is none, it is a link, or it cannot be read.
    public func names(in relativePath: String) -> [String]? {
        guard let (folder, name) = try? parent(of: relativePath, creating: false) else { return nil }
        defer { if folder != descriptor { close(folder) } }
        let listed = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard listed >= 0 else { return nil }
        defer { close(listed) }
        return Self.names(ofFolder: listed)
    }

    /// The names in the open folder `folder` (which stays open and is read from its start); nil
    /// when it cannot be read.
    private static func names(ofFolder folder: Int32) -> [String]? {
        let listed = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listed >= 0 else { return nil }
        guard let stream = fdopendir(listed) else {
            close(listed)
            return nil
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `path/relativePath`.
    public func fullPath(_ relativePath: String) -> String {
        (path as NSString).appendingPathComponent(relativePath)
    }

    /// The open folder that holds `relativePath`'s last name, and that name; each folder on the way
    /// is opened without following a link (and made first when `creating`); nil when one is missing.
    private func parent(of relativePath: String, creating: Bool) throws(OutputError) -> (folder: Int32, name: String)? {
        var names = relativePath.split(separator: "/").map(String.init)
        guard let name = names.popLast(), !names.contains(".."), name != "..", name != "." else {
            throw .system(fullPath(relativePath), "not a name inside the folder")
        }
        var folder = descriptor
        var walked = ""
        for component in names where component != "." {
            walked = walked.isEmpty ? component : walked + "/" + component
            if creating, !made.contains(walked), mkdirat(folder, component, 0o777) != 0, errno != EEXIST {
                let error = OutputError.system(fullPath(walked))
                if folder != descriptor { close(folder) }
                throw error
            }
            let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            if folder != descriptor { close(folder) }
            guard next >= 0 else {
                if failure == ENOENT, !creating { return nil }
                var status = stat()
                let isLink =
                    failure == ELOOP
                    || (failure == ENOTDIR && fstatat(descriptor, walked, &status, AT_SYMLINK_NOFOLLOW) == 0
                        && status.st_mode & S_IFMT == S_IFLNK)
                errno = failure
                throw isLink ? .link(fullPath(walked)) : .system(fullPath(walked))
            }
            if creating { made.insert(walked) }
            folder = next
        }
        return (folder, name)
    }
}
