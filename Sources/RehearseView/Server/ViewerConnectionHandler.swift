import NIOCore

/// The first handler of every connection the viewer accepts, below HTTP and WebSocket parsing:
/// tells ``ViewerConnections`` when the connection opens, reads, writes and closes, and once it is
/// a WebSocket (its first response is `101 Switching Protocols`), closes it on a client frame that
/// is not masked, before the frame is decoded.
final class ViewerConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The most bytes kept of what a client sends before its first response (its request head,
    /// and any frames it sent too early): past it, a WebSocket upgrade is refused.
    static let maximumEarlyBytes = 32 * 1024

    private enum Phase {
        /// No response yet: what the client sent so far (a WebSocket's first frames may follow
        /// the upgrade request's head), nil when it passed ``maximumEarlyBytes``.
        case beforeResponse(ByteBuffer?)
        case http
        case webSocket(WebSocketMaskCheck)
    }

    private let connections: ViewerConnections
    private var phase = Phase.beforeResponse(ByteBuffer())

    init(connections: ViewerConnections) {
        self.connections = connections
    }

    private var counted = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context.channel)
        context.fireChannelActive()
    }

    private func count(_ channel: any Channel) {
        guard !counted else { return }
        counted = true
        connections.opened(channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connections.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        connections.read(on: context.channel)
        switch phase {
        case .beforeResponse(var early?):
            phase = .http  // the phase's copy let go of, `early` grows in place
            if early.readableBytes + bytes.readableBytes <= Self.maximumEarlyBytes {
                early.writeBuffer(&bytes)
                phase = .beforeResponse(early)
            } else {
                phase = .beforeResponse(nil)
            }
        case .webSocket(var check):
            guard check.read(bytes) else { return refuseUnmaskedFrame(context: context) }
            phase = .webSocket(check)
        case .beforeResponse(nil), .http:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        connections.wrote(on: context.channel)
        if case .beforeResponse(let early) = phase {
            phase = .http
            if case .byteBuffer(let response) = unwrapOutboundIn(data), Self.isUpgrade(response) {
                guard let check = early.flatMap(Self.checkFramesSentEarly) else {
                    promise?.fail(ChannelError.ioOnClosedChannel)
                    return refuseUnmaskedFrame(context: context)
                }
                phase = .webSocket(check)
            }
        }
        context.write(data, promise: promise)
    }

    /// The check of a new WebSocket, having read the frames the client sent after its upgrade
    /// request's head in `early`; nil if one of them is not masked.
    private static func checkFramesSentEarly(_ early: ByteBuffer) -> WebSocketMaskCheck? {
        guard let headEnd = early.readableBytesView.firstRange(of: Self.headEnd) else { return nil }
        var check = WebSocketMaskCheck()
        let frames = early.getSlice(at: headEnd.upperBound, length: early.writerIndex - headEnd.upperBound) ?? ByteBuffer()
        return check.read(frames) ? check : nil
    }

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)

    /// Whether `response` starts the response that makes the connection a WebSocket.
    private static func isUpgrade(_ response: ByteBuffer) -> Bool {
        response.readableBytesView.starts(with: "HTTP/1.1 101 ".utf8)
    }

    /// RFC 6455 section 5.1: "a server MUST close the connection upon receiving a frame that is not masked".
    private func refuseUnmaskedFrame(context: ChannelHandlerContext) {
        phase = .http
        context.close(promise: nil)
    }
}
