import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Several messages for one connection written to its socket with one `sendmsg` each
/// ``maximumBytes``, where `dbus_connection_send` writes every message with a `sendmsg` of its own
/// (and each can wake the reader). The bytes are the ones libdbus would write
/// (`dbus_message_marshal` of a libdbus message, or an ``EncodedMessage``'s own), in the same order.
/// Only while nothing waits in libdbus's queue for the connection (so no message of its own is half
/// written) and the kernel has room for the whole write (so it is never cut inside a message); what
/// is not written so goes through libdbus, after.
package enum BatchedWrite {
    /// A message to write.
    package enum Item {
        /// A libdbus message, with a reference that ``send(_:on:socket:)`` releases.
        case made(OpaquePointer)
        /// Bytes built here, a libdbus message made of them only if libdbus sends them.
        case encoded(EncodedMessage)
    }

    /// The most bytes one `sendmsg` carries (a few dozen `Event` signals).
    package static let maximumBytes = 32 << 10
    /// How long a write the kernel cut short, which it should never do (see ``send(_:on:socket:)``),
    /// may take to finish before the connection counts as broken.
    package static let cutWriteDeadline = Duration.seconds(1)
    /// `SIOCOUTQ` (linux/sockios.h): the bytes a socket has sent that its peer has not read yet.
    private static let outputQueueRequest: UInt = 0x5411

    /// Whether `socket` is one this writes to: a unix socket (a peer of `--listen unix:...`).
    package static func canWrite(to socket: Int32) -> Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return socket >= 0 && named == 0 && Int32(address.ss_family) == AF_UNIX
    }

    /// Sends `items` on `connection`, whose socket is `socket` (a unix socket, authenticated), in
    /// order, and releases them. One libdbus message alone goes through libdbus (its bytes would
    /// be copied out for nothing); one built message alone is written as it is (libdbus would make
    /// a message of it, checking its bytes, first). False if a write was cut short inside a message
    /// and could not be finished within ``cutWriteDeadline``: the connection's stream is broken and
    /// the caller closes it.
    package static func send(_ items: [Item], on connection: OpaquePointer, socket: Int32) -> Bool {
        defer {
            for case .made(let message) in items { dbus_message_unref(message) }
        }
        var written = 0
        var intact = true
        let alone: Bool
        if case .made = items.first, items.count == 1 { alone = true } else { alone = false }
        if !alone, dbus_connection_has_messages_to_send(connection) == 0 {
            (written, intact) = write(items, to: socket)
        }
        for item in items[written...] {
            switch item {
            case .made(let message): dbus_connection_send(connection, message, nil)
            case .encoded(let encoded): if let message = encoded.message { dbus_connection_send(connection, message, nil) }
            }
        }
        return intact
    }

    /// Writes the longest prefix of `items` that fits the rules above; how many it wrote, and
    /// false if a cut write could not be finished.
    private static func write(_ items: [Item], to socket: Int32) -> (count: Int, intact: Bool) {
        var buffers: [[UInt8]] = []
        for item in items {
            guard let bytes = bytes(of: item) else { break }
            buffers.append(bytes)
        }
        let room = sendBufferBytes(socket)
        var start = 0
        var chunk: [UInt8] = []
        while start < buffers.count {
            var end = start
            var total = 0
            while end < buffers.count, total + buffers[end].count <= maximumBytes {
                total += buffers[end].count
                end += 1
            }
            // Room for twice the write: the kernel then takes it whole, whatever its per-packet overhead.
            guard end > start, let queued = queuedBytes(socket), queued + 2 * total <= room else { break }
            chunk.removeAll(keepingCapacity: true)
            for buffer in buffers[start..<end] { chunk += buffer }
            let sent = chunk.withUnsafeMutableBytes { bytes in
                var piece = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &piece) { piece in
                    var header = msghdr()
                    header.msg_iov = piece
                    header.msg_iovlen = 1
                    return sendmsg(socket, &header, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                }
            }
            if sent <= 0 { break }  // nothing written: libdbus sends the rest (and sees any error)
            if sent < total, !finish(chunk[sent...], on: socket) { return (end, false) }
            start = end
        }
        return (start, true)
    }

    /// The bytes libdbus would write for `item`; nil for a message libdbus numbers as it sends
    /// it (one without a serial) or one with file descriptors, which only libdbus can send.
    private static func bytes(of item: Item) -> [UInt8]? {
        switch item {
        case .encoded(let encoded):
            return encoded.bytes
        case .made(let message):
            guard dbus_message_get_serial(message) != 0, dbus_message_contains_unix_fds(message) == 0 else { return nil }
            var bytes: UnsafeMutablePointer<CChar>?
            var count: Int32 = 0
            guard dbus_message_marshal(message, &bytes, &count) != 0, let bytes else { return nil }
            defer { dbus_free(bytes) }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
        }
    }

    /// Writes `left`, the end of a write the kernel cut short, waiting for room until
    /// ``cutWriteDeadline``; false if it could not.
    private static func finish(_ left: ArraySlice<UInt8>, on socket: Int32) -> Bool {
        var left = left
        let deadline = ContinuousClock.now + cutWriteDeadline
        while !left.isEmpty {
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            guard ContinuousClock.now < deadline, poll(&descriptor, 1, 10) >= 0 else { return false }
            let written = left.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if written > 0 {
                left.removeFirst(written)
            } else if written < 0, errno != EAGAIN, errno != EINTR {
                return false
            }
        }
        return true
    }

    /// The bytes `socket` has sent and its peer not read yet; nil if the kernel does not say.
    private static func queuedBytes(_ socket: Int32) -> Int? {
        var queued: Int32 = 0
        return ioctl(socket, outputQueueRequest, &queued) == 0 ? Int(queued) : nil
    }

    /// The size of `socket`'s send buffer (0 if the kernel does not say: nothing is then written here).
    private static func sendBufferBytes(_ socket: Int32) -> Int {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0 ? Int(size) : 0
    }
}
