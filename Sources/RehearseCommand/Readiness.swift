import Foundation

/// How `rehearse serve` says it is ready: its line on standard output, the same line on a file
/// descriptor the parent gave (`--ready-fd`), and `READY=1` to systemd when `NOTIFY_SOCKET` is set
/// (the sd_notify protocol: one datagram to that socket).
enum Readiness {
    static func announce(_ line: String, fileDescriptor: Int32?) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        if let fileDescriptor {
            let handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: true)
            try? handle.write(contentsOf: Data((line + "\n").utf8))
            try? handle.close()
        }
        if let socket = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] {
            notifySystemd(at: socket, "READY=1\nSTATUS=\(line)")
        }
    }

    /// Sends `message` as one datagram to the unix socket at `path` (`@name`: an abstract socket).
    private static func notifySystemd(at path: String, _ message: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withCString { sendto(descriptor, $0, strlen($0), 0, socketAddress, length) }
            }
        }
    }
}
