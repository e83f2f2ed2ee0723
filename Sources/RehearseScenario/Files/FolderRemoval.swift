#if canImport(Glibc)
    import Glibc
#endif

/// Removes a folder with everything in it without following a link, with bounded work: a link,
/// at the path or inside, is removed as a link and what it points to stays; each subfolder is
/// opened without following one, so a link swapped in meanwhile is never entered. It enters
/// folders nested at most ``maximumDepth`` deep, removes at most ``maximumEntries`` entries, and
/// goes over the folder at most ``maximumRounds`` times (something filled it meanwhile): past
/// any of these it stops and says why the folder stays.
public enum FolderRemoval {
    /// How deep inside the folder subfolders are removed; a deeper one stays, and so does the folder.
    public static let maximumDepth = 64
    /// How many entries one removal removes at most, over all its rounds.
    public static let maximumEntries = 100_000
    /// How often the folder is gone over when something fills it meanwhile.
    public static let maximumRounds = 3

    /// Why a folder stays.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// It holds a folder nested deeper than ``maximumDepth``.
        case tooDeep
        /// It holds more than ``maximumEntries`` entries.
        case tooMany
        /// `name` (inside the folder, or the folder) could not be removed: `errno`'s code.
        case failed(name: String, code: Int32)

        public var description: String {
            switch self {
            case .tooDeep: "it holds folders nested more than \(maximumDepth) deep"
            case .tooMany: "it holds more than \(maximumEntries) entries"
            case .failed(let name, let code): "cannot remove \(name): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Removes the folder (or link, or file) at `path` and everything in it; throws why it stays
    /// if it does (what could be removed is gone).
    public static func remove(_ path: String) throws(Failure) {
        var entries = 0
        for round in 1...maximumRounds {
            do throws(Failure) {
                try remove(path, shown: path, in: AT_FDCWD, depth: 0, entries: &entries)
                return
            } catch {
                // Only something put there meanwhile is worth another round.
                guard case .failed = error, round < maximumRounds else { throw error }
            }
        }
    }

    /// Removes `name` of the open folder `folder` (`shown` is its path in messages), `depth`
    /// folders below the one removed, counting what it removes in `entries`.
    private static func remove(_ name: UnsafePointer<CChar>, shown: String, in folder: Int32, depth: Int, entries: inout Int)
        throws(Failure)
    {
        if unlinkat(folder, name, 0) == 0 || errno == ENOENT { return }
        guard errno == EISDIR else { throw .failed(name: shown, code: errno) }
        guard depth <= maximumDepth else { throw .tooDeep }
        let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard inner >= 0 else {
            if errno == ENOENT { return }
            throw .failed(name: shown, code: errno)
        }
        try empty(inner, shown: shown, depth: depth, entries: &entries)
        if unlinkat(folder, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return }
        throw .failed(name: shown, code: errno)
    }

    /// Removes what the open folder `descriptor` holds, and closes it.
    private static func empty(_ descriptor: Int32, shown: String, depth: Int, entries: inout Int) throws(Failure) {
        guard let stream = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            throw .failed(name: shown, code: code)
        }
        defer { closedir(stream) }
        var names: [[CChar]] = []
        while let entry = readdir(stream) {
            // Bytes, not a String: a name that is not UTF-8 is removed all the same.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }
            }
            guard name != [46], name != [46, 46] else { continue }
            entries += 1
            guard entries <= maximumEntries else { throw .tooMany }
            names.append(name + [0])
        }
        for name in names {
            let inside = "\(shown)/\(String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            try remove(name, shown: inside, in: dirfd(stream), depth: depth + 1, entries: &entries)
        }
    }
}
