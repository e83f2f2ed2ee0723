#if canImport(Glibc)
import Glibc
#endif

/// Removes a folder with everything in it without following a link: a link, at the path or
/// inside, is removed as a link and what it points to stays; each subfolder is opened without
/// following one, so a link swapped in meanwhile is never entered.
public enum FolderRemoval {
    /// How deep inside the folder subfolders are removed; a deeper one stays, and so does the folder.
    public static let maximumDepth = 64
    /// How often a folder that something fills while it is emptied is emptied again.
    static let attempts = 3

    /// Removes the folder (or link, or file) at `path` and everything in it; returns whether it is gone.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        path.withCString { remove($0, in: AT_FDCWD, depth: 0) }
    }

    private static func remove(_ name: UnsafePointer<CChar>, in folder: Int32, depth: Int) -> Bool {
        if unlinkat(folder, name, 0) == 0 || errno == ENOENT { return true }
        guard errno == EISDIR, depth <= maximumDepth else { return false }
        for _ in 0..<attempts {
            let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard inner >= 0 else { return errno == ENOENT }
            empty(inner, depth: depth)
            if unlinkat(folder, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return true }
            guard errno == ENOTEMPTY || errno == EEXIST else { return false }
        }
        return false
    }

    /// Removes what the open folder `descriptor` holds, and closes it.
    private static func empty(_ descriptor: Int32, depth: Int) {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(stream) }
        var names: [[CChar]] = []
        while let entry = readdir(stream) {
            // Bytes, not a String: a name that is not UTF-8 is removed all the same.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } }
            if name != [46], name != [46, 46] { names.append(name + [0]) }
        }
        for name in names {
            name.withUnsafeBufferPointer { _ = remove($0.baseAddress!, in: dirfd(stream), depth: depth + 1) }
        }
    }
}
