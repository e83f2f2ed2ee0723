import NIOCore

/// Follows the frames a WebSocket client sends, header by header (payloads are skipped, not kept),
/// to find one that is not masked: RFC 6455 section 5.1 says a client masks every frame and a
/// server closes the connection on one that is not.
struct WebSocketMaskCheck {
    /// The header read so far (at most 14 bytes: 2, 8 of extended length, 4 of mask).
    private var header: [UInt8] = []
    private var payloadLeft: UInt64 = 0

    /// Reads the next bytes the client sent; false once a frame is not masked.
    mutating func read(_ bytes: ByteBuffer) -> Bool {
        var bytes = bytes
        while bytes.readableBytes > 0 {
            if payloadLeft > 0 {
                let skipped = Int(min(UInt64(bytes.readableBytes), payloadLeft))
                bytes.moveReaderIndex(forwardBy: skipped)
                payloadLeft -= UInt64(skipped)
                continue
            }
            guard let byte = bytes.readInteger(as: UInt8.self) else { break }
            header.append(byte)
            guard header.count >= 2 else { continue }
            guard header[1] & 0x80 != 0 else { return false }
            let shortLength = header[1] & 0x7F
            let lengthBytes = shortLength == 127 ? 8 : shortLength == 126 ? 2 : 0
            guard header.count == 2 + lengthBytes + 4 else { continue }
            payloadLeft =
                lengthBytes == 0 ? UInt64(shortLength) : header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            header.removeAll(keepingCapacity: true)
        }
        return true
    }
}
