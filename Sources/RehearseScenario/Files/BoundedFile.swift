import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file that comes from outside (a scenario named on the command line or found in a folder)
/// with its size bounded before it is read: a regular file larger than the limit is refused from
/// its size alone, and anything else (a pipe, a device such as `/dev/zero`) is read up to the limit
/// and one byte more, so that no file costs more memory than the limit, whatever it holds.
public enum BoundedFile {
    /// Why a file was not read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// It holds more than the limit: `size` when its size is known, nil for a stream.
        case tooLarge(size: Int?, limit: Int)
        /// It is a folder.
        case folder
        /// The system refused to open or read it (`strerror`'s text).
        case system(String)

        /// What went wrong, in a few words.
        public var description: String {
            switch self {
            case .tooLarge(let size?, let limit): "file is \(size) bytes; the limit is \(limit) bytes"
            case .tooLarge(nil, let limit): "file holds more than \(limit) bytes, the limit"
            case .folder: "this is a folder, not a file"
            case .system(let message): message
            }
        }

        /// The failure `errno` names now.
        static var systemError: Failure { .system(String(cString: strerror(errno))) }
    }

    /// How much is read at once.
    static let chunkSize = 64 << 10

    /// The bytes of the file at `path`, at most `limit` of them; anything longer is refused.
    /// A named pipe is opened without waiting for a writer (then read as a stream: a pipe nobody
    /// writes to reads as empty), so a pipe planted in a folder of scenarios never blocks a run.
    public static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .systemError }
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw .systemError }
        return try read(descriptor: descriptor, limit: limit)
    }

    /// The bytes of the open file `descriptor`, from where it stands, at most `limit` of them.
    public static func read(descriptor: Int32, limit: Int) throws(Failure) -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .systemError }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFDIR else { throw .folder }
        if kind == S_IFREG, status.st_size > limit { throw .tooLarge(size: Int(status.st_size), limit: limit) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: min(chunkSize, limit + 1))
        while data.count <= limit {
            let wanted = min(chunk.count, limit + 1 - data.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .systemError
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
        // A stream, or a file that grew while it was read.
        throw .tooLarge(size: nil, limit: limit)
    }
}
