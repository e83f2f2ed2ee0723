import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// The live viewer's HTTP server: the page (embedded, nothing fetched from elsewhere) at `/` and
/// the page's WebSocket at `/ws`, over Hummingbird. It only moves messages between the pages and
/// the ``LiveViewer``'s hub; the simulation stays on the service's thread.
public final class ViewerServer: Sendable {
    /// The most bytes the page's requests may carry in headers.
    static let maximumHeaderBytes = 16 * 1024
    /// How long a connection may stay idle before it is closed (a WebSocket's pings keep it open).
    static let idleTimeout = TimeAmount.seconds(30)
    /// The largest WebSocket frame either way: a page's larger frame closes its socket, and
    /// messages to the pages go in several.
    static let maximumFrameSize = ViewerCommand.maximumMessageSize

    /// The URL the page is served at, with the port the server bound.
    public let url: String
    private let task: Task<Void, any Error>

    private init(url: String, task: Task<Void, any Error>) {
        self.url = url
        self.task = task
    }

    /// Starts serving `viewer`'s pages at `address` and returns once the server listens; throws
    /// when it cannot (the address is taken, or not this machine's).
    public static func start(_ viewer: LiveViewer, at address: ViewerAddress) throws -> ViewerServer {
        let hub = viewer.hub
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: ViewerPage.contentSecurityPolicy,
                                            .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: ViewerPage.html)))
        }
        router.ws("/ws", shouldUpgrade: { request, _ in
            mayUpgrade(request, loopbackOnly: address.isLoopback) ? .upgrade([:]) : .dontUpgrade
        }, onUpgrade: { inbound, outbound, _ in
            guard let (client, messages) = hub.connect() else {
                try await outbound.close(.unexpectedServerError, reason: "\(ViewerHub.maximumClients) pages are connected (the limit)")
                return
            }
            defer { hub.disconnect(client) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in messages { try await outbound.write(.text(message)) }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: ViewerCommand.maximumMessageSize) {
                        receive(message, from: client, hub: hub)
                    }
                }
                _ = try await group.next()  // the page left (or could not be written to): stop both
                group.cancelAll()
            }
        })
        var http1 = HTTP1Channel.Configuration(idleTimeout: idleTimeout)
        http1.httpDecoder = .init(maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes, maxHeaderFieldCount: 100)
        let started = StartSignal()
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(
                http1: http1, ws: .init(maxFrameSize: maximumFrameSize, autoPing: .enabled(timePeriod: .seconds(10))))),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "rehearse"),
            onServerRunning: { channel in started.finish(.success(channel.localAddress?.port ?? address.port)) },
            logger: Logger(label: "rehearse.viewer", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            do {
                try await app.run()
            } catch {
                started.finish(.failure(error))
                throw error
            }
        }
        let port = try started.wait()
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        return ViewerServer(url: "http://\(host):\(port)/", task: task)
    }

    /// Stops serving.
    public func stop() {
        task.cancel()
    }

    /// Whether a WebSocket upgrade may drive the simulation: a browser names the page's origin,
    /// which must be this server, so another site open in the same browser cannot (programs that
    /// send no origin, such as test drivers, are let in); and a server on loopback answers only to
    /// a loopback host name, so a site whose name was made to point at 127.0.0.1 (DNS rebinding)
    /// cannot either.
    static func mayUpgrade(_ request: Request, loopbackOnly: Bool) -> Bool {
        guard let authority = request.head.authority else { return false }
        if loopbackOnly {
            let host = authority.contains("]:") || (!authority.hasPrefix("[") && authority.contains(":")) ? authority : authority + ":80"
            guard ViewerAddress(host)?.isLoopback == true else { return false }
        }
        guard let origin = request.headers[.origin] else { return true }
        return origin == "http://\(authority)"
    }

    private static func receive(_ message: WebSocketMessage, from client: Int, hub: ViewerHub) {
        func refuse(_ reason: String) {
            hub.send(ViewerHub.errorMessage(reason), to: client)
        }
        guard case .text(let text) = message else { return refuse("commands are JSON text messages") }
        do {
            let command = try ViewerCommand(json: text)
            if !hub.submit(command, from: client) { refuse("\(ViewerHub.maximumQueuedCommands) commands already wait: slow down") }
        } catch {
            refuse(error.description)
        }
    }
}

/// Waits on one thread for a result another sets once.
private final class StartSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Int, any Error>?>(nil)

    func finish(_ outcome: Result<Int, any Error>) {
        let first = result.withLock { result in
            guard result == nil else { return false }
            result = outcome
            return true
        }
        if first { semaphore.signal() }
    }

    func wait() throws -> Int {
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }
}
