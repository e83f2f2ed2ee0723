import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why an output was not written; nothing was changed.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output is one of the files the command reads (under another name or link).
    case sameAsInput(String)
    /// The output exists and the command does not replace it unless told to.
    case exists(String)
    /// A symbolic link stands inside an output folder where a folder or file is to be written.
    case link(String)
    /// The output folder given is itself a symbolic link.
    case linkGiven(String)
    /// The output folder holds files, and not the marker of a folder this tool wrote.
    case notOwned(String, marker: String)
    /// The system refused (`strerror`'s text).
    case system(String, String)

    /// What was refused and why, naming the path.
    public var description: String {
        switch self {
        case .sameAsInput(let path): "\(path) is a file this command reads (under another name or link); give another path"
        case .exists(let path): "\(path) exists"
        case .link(let path): "\(path) is a symbolic link; rehearse never follows a link inside an output folder"
        case .linkGiven(let path): "\(path) is a symbolic link; give the folder it points to"
        case .notOwned(let path, let marker):
            "\(path) holds files and no \(marker), so rehearse did not write it: give a new or empty folder"
        case .system(let path, let message): "cannot write \(path): \(message)"
        }
    }

    /// The failure `errno` names now, for `path`.
    static func system(_ path: String) -> OutputError {
        .system(path, String(cString: strerror(errno)))
    }
}

/// Writes all of `data` to `descriptor`, or throws naming `path`.
func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(OutputError) {
    let failure: Int32 = data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }
    guard failure == 0 else {
        errno = failure
        throw .system(path)
    }
}
