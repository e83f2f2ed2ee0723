import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import RehearseCore
import Synchronization

/// The live viewer's HTTP server: the page (embedded, nothing fetched from elsewhere) at `/` with
/// its script and styles (to GET and HEAD), and the page's WebSocket at `/ws`, over Hummingbird. It only moves
/// messages between the pages and the ``LiveViewer``'s hub; the simulation stays on the service's
/// thread. Every connection is counted and timed by ``ViewerConnections``.
public final class ViewerServer: Sendable {
    /// The most bytes the page's requests may carry in headers.
    static let maximumHeaderBytes = 16 * 1024
    /// The most header fields a request may have.
    static let maximumHeaderFields = 100
    /// The largest WebSocket frame either way: a page's larger frame closes its socket, and
    /// messages to the pages go in several.
    static let maximumFrameSize = ViewerCommand.maximumMessageSize

    /// The URL the page is served at, with the port the server bound.
    public let url: String
    private let task: Task<Void, any Error>
    let connections: ViewerConnections

    private init(url: String, task: Task<Void, any Error>, connections: ViewerConnections) {
        self.url = url
        self.task = task
        self.connections = connections
    }

    /// Starts serving `viewer`'s pages at `address` and returns once the server listens; throws
    /// when it cannot (the address is taken, or not this machine's).
    public static func start(_ viewer: LiveViewer, at address: ViewerAddress) throws -> ViewerServer {
        try start(viewer, at: address, limits: .standard)
    }

    /// Starts serving with `limits`, saying on `log` what it closes or refuses at them.
    static func start(
        _ viewer: LiveViewer, at address: ViewerAddress, limits: ViewerConnections.Limits,
        log: ThrottledLog = ThrottledLog(prefix: "rehearse viewer: ")
    ) throws -> ViewerServer {
        let hub = viewer.hub
        let connections = ViewerConnections(limits: limits, log: log)
        let hosts = HostPolicy(listeningAt: address)
        // HEAD answers as GET does, with the same status and headers and no body (RFC 9110, 9.3.2).
        let router = Router(context: ViewerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: HostCheck(policy: hosts))
        router.get("/") { _, _ in file(ViewerPage.html, type: "text/html; charset=utf-8") }
        router.get("/viewer.js") { _, _ in file(ViewerPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/viewer.css") { _, _ in file(ViewerPage.style, type: "text/css; charset=utf-8") }
        router.ws(
            "/ws",
            shouldUpgrade: { request, _ in
                mayUpgrade(request) ? .upgrade([:]) : .dontUpgrade
            },
            onUpgrade: { inbound, outbound, context in
                try await serve(hub: hub, inbound: inbound, outbound: outbound, log: connections.log) {
                    connections.becamePage(context.requestContext.channel)
                }
            })
        var http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(limits.idleTimeout))
        http1.httpDecoder = .init(
            maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes,
            maxHeaderFieldCount: maximumHeaderFields)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: http1,
            ws: .init(maxFrameSize: maximumFrameSize, autoPing: .enabled(timePeriod: limits.pingPeriod), validateUTF8: true))
        let webSocketResponder = router.buildResponder()
        let started = StartSignal()
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChildChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: configuration),
                    connections: connections)
            },
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "rehearse"),
            onServerRunning: { channel in
                hosts.bound(to: channel.localAddress?.ipAddress ?? "")
                started.finish(.success(channel.localAddress?.port ?? address.port))
            },
            logger: Logger(label: "rehearse.viewer", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            do {
                try await app.run()
            } catch {
                started.finish(.failure(error))
                throw error
            }
        }
        let port: Int
        do {
            port = try started.wait()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ViewerServerError.portTaken(address)
        }
        connections.startSweeping()
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        return ViewerServer(url: "http://\(host):\(port)/", task: task, connections: connections)
    }

    private static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!

    /// One of the page's files, never cached, under the page's content policy.
    private static func file(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .contentSecurityPolicy: ViewerPage.contentSecurityPolicy,
                .cacheControl: "no-store", contentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Moves messages between one page's WebSocket and the hub until either side ends; `accepted`
    /// is called once the hub took the page, and a page the hub refuses is said on `log`.
    private static func serve(
        hub: ViewerHub, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        log: ThrottledLog, accepted: () -> Void
    ) async throws {
        guard let (client, messages) = hub.connect() else {
            log("refused a page: \(ViewerHub.maximumClients) pages are connected (the limit)")
            try await outbound.close(
                .unexpectedServerError, reason: "\(ViewerHub.maximumClients) pages are connected (the limit)")
            return
        }
        accepted()
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
    }

    /// Stops serving.
    public func stop() {
        connections.stopSweeping()
        task.cancel()
    }

    /// Whether a WebSocket upgrade may drive the simulation (its `Host` was checked already by
    /// ``HostCheck``): only a GET upgrades (RFC 6455 section 4.1; the router answers HEAD as GET,
    /// so a HEAD comes here too, and is refused); a browser names the page's
    /// origin, which must be this server, so another site open in the same browser cannot
    /// (programs that send no origin, such as test drivers, are let in).
    static func mayUpgrade(_ request: Request) -> Bool {
        guard request.method == .get, let authority = request.head.authority else { return false }
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
            if !hub.submit(command, from: client) {
                refuse("\(ViewerHub.maximumQueuedCommands) commands already wait: slow down")
            }
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
