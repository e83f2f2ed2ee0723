#if canImport(Glibc)
    import Glibc
#endif

/// A file as the system knows it, its device and inode: two paths of one file (hard links, symbolic
/// links, `..` and `.`) have one identity, which is how an output is told from an input.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` (symbolic links followed), or nil when there is none.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The open file `descriptor`.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
