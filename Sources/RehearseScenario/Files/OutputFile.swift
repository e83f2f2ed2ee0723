import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file named on the command line to write (`run --trace`, `render -o`), opened so that it can
/// never be one of the command's inputs: the file opened is compared, by device and inode, with
/// every input before a byte of it changes, so a hard link or a symbolic link to a scenario file is
/// refused as the scenario itself is. The path is the user's: links on it are followed, and
/// `/dev/stdout` works.
public final class OutputFile {
    /// The path as given.
    public let path: String
    private var descriptor: Int32

    /// Opens `path` for writing (created if absent, emptied if not), unless it is one of `inputs`.
    public init(path: String, sparing inputs: [FileIdentity]) throws(OutputError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o666)
        guard descriptor >= 0 else { throw .system(path) }
        guard let identity = FileIdentity(descriptor: descriptor), !inputs.contains(identity) else {
            Glibc.close(descriptor)
            throw .sameAsInput(path)
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, ftruncate(descriptor, 0) != 0 {
            Glibc.close(descriptor)
            throw .system(path)
        }
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Appends `text`.
    public func write(_ text: String) throws(OutputError) {
        try write(Data(text.utf8))
    }

    /// Appends `data`.
    public func write(_ data: Data) throws(OutputError) {
        try writeAll(data, to: descriptor, path: path)
    }

    /// Closes the file, reporting a failure to write what was buffered by the system.
    public func close() throws(OutputError) {
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw .system(path) }
    }

    /// Writes `text` to `path` (as ``init(path:sparing:)`` opens it) and closes it.
    public static func write(_ text: String, to path: String, sparing inputs: [FileIdentity]) throws(OutputError) {
        let file = try OutputFile(path: path, sparing: inputs)
        try file.write(text)
        try file.close()
    }
}
