import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the viewer, as a hostile or careless client would hold one: bytes in,
/// bytes out, nothing parsed. Whatever waits for the server waits on a thread of its own, never on
/// one of Swift concurrency's few threads, which the server under test needs (and which other
/// tests running beside may hold). Unchecked: one test uses a socket at a time.
final class TestSocket: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`; nil when it cannot.
    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// What arrives within `seconds`, until `until` is in it or the server closes; `closed` says
    /// whether it did.
    func receive(for seconds: Double, until needle: String? = nil) async -> (bytes: [UInt8], closed: Bool) {
        await onOwnThread { self.receiveBlocking(for: seconds, until: needle) }
    }

    private func receiveBlocking(for seconds: Double, until needle: String?) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(deadline.timeIntervalSinceNow * 1000, 1)))
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received += buffer[..<count]
            if let needle, String(decoding: received, as: UTF8.self).contains(needle) { return (received, false) }
        }
        return (received, false)
    }

    /// Whether the server has closed the connection, without waiting (anything sent is dropped).
    func isClosedNow() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Whether the server closed the connection within `seconds` (anything sent meanwhile is read and dropped).
    func isClosed(within seconds: Double) async -> Bool {
        await receive(for: seconds).closed
    }

    /// Sends a WebSocket upgrade for `/ws` with `host` (and `origin`, if any); the response's status line.
    func upgrade(host: String, origin: String? = nil) async -> String {
        send(
            "GET /ws HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n")
        let response = String(decoding: await receive(for: 30, until: "\r\n\r\n").bytes, as: UTF8.self)
        return response.components(separatedBy: "\r\n").first ?? ""
    }

    /// A text frame, masked as a client must (RFC 6455 section 5.3) unless `masked` is false.
    static func textFrame(_ text: String, masked: Bool = true) -> [UInt8] {
        textFrame(bytes: Array(text.utf8), masked: masked)
    }

    /// A text frame of `payload` as it is (UTF-8 or not), masked unless `masked` is false.
    static func textFrame(bytes payload: [UInt8], masked: Bool = true) -> [UInt8] {
        precondition(payload.count < 126, "short frames only")
        guard masked else { return [0x81, UInt8(payload.count)] + payload }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }
}

/// Runs `body` on a thread of its own and waits for it without holding a thread.
func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
