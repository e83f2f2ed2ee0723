import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// Hummingbird's WebSocket request context, keeping the connection a request came on, so that
/// the connection of a page the hub took can be told apart from any other (``ViewerConnections``
/// never displaces a page's).
struct ViewerRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
