import Foundation
import RehearseCore
import RehearsePlugins
import Synchronization
import Testing

@testable import RehearseView

/// The viewer's real HTTP server on loopback, driven over plain sockets as hostile or careless
/// clients would: host names, the content policy, unmasked frames, idle and half-sent connections.
@Suite(.serialized) struct ViewerServerTests {
    /// An idle timeout short enough for a test (the bounds below are ten times it), long enough
    /// for a loaded machine to answer a request within it.
    static let idleTimeout = Duration.seconds(1)
    /// How long an answer may take before a test gives up on it: the server's request handling
    /// runs on Swift concurrency's threads, which tests running beside may hold for seconds.
    static let answerWindow = 30.0

    private func start(_ limits: ViewerConnections.Limits = .standard, log: ThrottledLog = ThrottledLog(prefix: "")) throws
        -> (ViewerServer, port: Int)
    {
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let server = try ViewerServer.start(viewer, at: try #require(ViewerAddress("127.0.0.1:0")), limits: limits, log: log)
        let port = try #require(Int(server.url.dropFirst("http://127.0.0.1:".count).dropLast()))
        return (server, port)
    }

    private func get(_ path: String, host: String, port: Int) async throws -> String {
        let connection = try #require(TestSocket(port: port))
        connection.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        return String(decoding: await connection.receive(for: Self.answerWindow, until: "\r\n\r\n").bytes, as: UTF8.self)
    }

    /// Whether every one of `sockets` is closed by the server before `deadline`.
    private func allClosed(_ sockets: some Sequence<TestSocket>, before deadline: Date) async -> Bool {
        for socket in sockets where !(await socket.isClosed(within: max(deadline.timeIntervalSinceNow, 0.01))) { return false }
        return true
    }

    /// A port another program holds is named, with how to get a free one; not NIO's
    /// "bind(descriptor:ptr:bytes:): Address already in use".
    @Test func aTakenPortIsNamedWithWhatToDo() throws {
        let (server, port) = try start()
        defer { server.stop() }
        let viewer = LiveViewer(readOnly: false, scenario: nil, registry: shippedPlugins)
        let taken = try #require(ViewerAddress("127.0.0.1:\(port)"))
        #expect { _ = try ViewerServer.start(viewer, at: taken) } throws: { error in
            "\(error)"
                == "port \(port) is taken by another program (another viewer?): give another port, or --http 127.0.0.1:0 for a free one"
        }
    }

    @Test func aPageAndItsScriptUnderAPolicyWithoutInlineScriptOnlyForItsOwnName() async throws {
        let (server, port) = try start()
        defer { server.stop() }
        let page = try await get("/", host: "127.0.0.1:\(port)", port: port)
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page)")
        let policy = try #require(
            page.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-security-policy:") })
        #expect(policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"), "\(policy)")
        #expect(page.contains(#"<script src="/viewer.js"></script>"#))
        #expect(!page.contains("<script>"), "no inline script")
        #expect(try await get("/viewer.js", host: "localhost:\(port)", port: port).hasPrefix("HTTP/1.1 200"))
        for rebound in ["127.evil.example:\(port)", "localhost.evil.example:\(port)", "0x7f.1:\(port)", "2130706433:\(port)"] {
            #expect(try await get("/", host: rebound, port: port).hasPrefix("HTTP/1.1 403"), "\(rebound)")
            let socket = try #require(TestSocket(port: port))
            let status = await socket.upgrade(host: rebound, origin: "http://\(rebound)")
            #expect(!status.contains(" 101 "), "\(rebound)")
        }
    }

    /// RFC 9112 section 3.2: a request with more than one `Host` is refused (400), a WebSocket
    /// upgrade too. Only the first was checked, so `Host: 127.0.0.1:PORT` then `Host:
    /// evil.example` was served.
    @Test func aRequestWithTwoHostsIsRefused() async throws {
        let (server, port) = try start()
        defer { server.stop() }
        let upgrade =
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (path, extra) in [("/", ""), ("/ws", upgrade)] {
            for second in ["evil.example", "127.0.0.1:\(port)"] {
                let connection = try #require(TestSocket(port: port))
                connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: \(second)\r\n\(extra)\r\n")
                let answer = String(
                    decoding: await connection.receive(for: Self.answerWindow, until: "\r\n\r\n").bytes, as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path), second Host \(second): \(answer)")
            }
        }
    }

    /// RFC 9110 section 9.3.2: every page a GET serves answers HEAD with the same status and
    /// headers (its `Content-Length` the GET's body's) and no body, checked by Python's
    /// `http.client` on one kept-alive connection, where a body sent after a HEAD would be read
    /// as the next answer. (Once, `HEAD /` was 404 while `GET /` was 200.)
    @Test func headIsAnsweredAsGetWithoutABody() async throws {
        let (server, port) = try start()
        defer { server.stop() }
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", \(port), timeout=\(Self.answerWindow))
            for path in ("/", "/viewer.js", "/viewer.css"):
                answers = []
                for method in ("HEAD", "GET", "HEAD"):
                    connection.request(method, path)
                    response = connection.getresponse()
                    body = response.read()
                    headers = sorted((name.lower(), value) for name, value in response.getheaders() if name.lower() != "date")
                    answers.append((response.status, headers, len(body)))
                (head, headers, head_bytes), (get, get_headers, get_bytes), again = answers
                length = dict(headers).get("content-length")
                print(path, head, get, headers == get_headers, length == str(get_bytes), head_bytes, get_bytes > 0, again == answers[0])
            """
        let result = await onOwnThread { () -> (status: Int32, output: String) in
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script]
            process.standardOutput = output
            process.standardError = output
            guard (try? process.run()) != nil else { return (-1, "python3 did not start") }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output == ["/", "/viewer.js", "/viewer.css"].map { "\($0) 200 200 True True 0 True True\n" }.joined(),
            "\(result.output)")
    }

    /// RFC 6455 section 4.1: a WebSocket upgrade is a GET. A HEAD with the upgrade's headers, from
    /// the page's origin or another, is refused as an upgrade that may not drive the simulation
    /// is (`400`, no body, the connection closed): no WebSocket frame comes. (Once, HEAD /ws
    /// switched protocols and the socket got the page's hello.)
    @Test func headNeverUpgrades() async throws {
        let (server, port) = try start()
        defer { server.stop() }
        for origin in ["", "Origin: http://127.0.0.1:\(port)\r\n", "Origin: http://evil.example\r\n"] {
            let socket = try #require(TestSocket(port: port))
            socket.send(
                "HEAD /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(origin)\r\n")
            let (bytes, closed) = await socket.receive(for: Self.answerWindow)
            let answer = String(decoding: bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(origin): \(answer)")
            #expect(answer.hasSuffix("\r\n\r\n") && answer.components(separatedBy: "\r\n\r\n").count == 2, "\(origin): \(answer)")
            #expect(closed, "\(origin)")
        }
    }

    /// RFC 6455 section 5.1: a server closes the connection on a client frame that is not masked,
    /// whether it came after the upgrade or with the upgrade request itself.
    @Test func anUnmaskedFrameClosesTheConnection() async throws {
        let (server, port) = try start(.standard)
        defer { server.stop() }
        let masked = try #require(TestSocket(port: port))
        #expect(await masked.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
        masked.send(TestSocket.textFrame(#"{"type":"teleport"}"#))
        #expect(!(await masked.isClosed(within: 0.5)), "a masked frame is taken")
        let unmasked = try #require(TestSocket(port: port))
        #expect(await unmasked.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
        unmasked.send(TestSocket.textFrame(#"{"type":"pause"}"#, masked: false))
        #expect(await unmasked.isClosed(within: 5))
        let early = try #require(TestSocket(port: port))
        early.send(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        early.send(TestSocket.textFrame(#"{"type":"pause"}"#, masked: false))
        // Whether the 101 goes out before the frame is read depends on how the two sends arrive
        // (one read or two: it varied between runs); either way the connection must close.
        #expect(await early.receive(for: 5).closed)
    }

    /// A text frame that is not UTF-8 closes the WebSocket with code 1007, "invalid frame payload
    /// data" (RFC 6455 sections 5.6 and 7.4.1: a text message must be UTF-8), and the server keeps
    /// serving pages. (Before, its bytes were read with U+FFFD in place of the bad ones, and the
    /// page was told its message was not a command.)
    @Test func aTextFrameThatIsNotUTF8ClosesTheWebSocketWith1007() async throws {
        let (server, port) = try start(.standard)
        defer { server.stop() }
        let page = try #require(TestSocket(port: port))
        #expect(await page.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
        page.send(TestSocket.textFrame(bytes: Array(#"{"type":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)))
        let answer = await page.receive(for: 5)
        #expect(answer.closed)
        let close = try #require(answer.bytes.firstIndex(of: 0x88), "no close frame in \(answer.bytes)")
        #expect(Array(answer.bytes[close...].dropFirst(2).prefix(2)) == [0x03, 0xEF], "\(answer.bytes[close...])")  // 1007
        let next = try #require(TestSocket(port: port))
        #expect(await next.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
    }

    /// Idle connections and half-sent requests (however slowly they trickle) are closed after the
    /// idle timeout, and a page is served beside them all along.
    @Test func idleConnectionsAreClosedAfterTheTimeoutAndAPageIsStillServed() async throws {
        let (server, port) = try start(ViewerConnections.Limits(idleTimeout: Self.idleTimeout, maximumConnections: 512))
        defer { server.stop() }
        let opening = Date()
        var idle: [TestSocket] = []
        for _ in 0..<300 { idle.append(try #require(TestSocket(port: port))) }
        let halfSent = try #require(TestSocket(port: port))
        halfSent.send("GET / HTTP/1.1\r\nHo")
        #expect(
            try await get("/", host: "127.0.0.1:\(port)", port: port).hasPrefix("HTTP/1.1 200"),
            "a page beside 300 idle connections")
        var trickleClosed = false
        while Date().timeIntervalSince(opening) < 10, !trickleClosed {
            halfSent.send("x")
            trickleClosed = await halfSent.isClosed(within: 0.05)
        }
        trickleClosed = trickleClosed || halfSent.isClosedNow()  // checked once more after a wait the test did not run in
        #expect(trickleClosed, "a request trickled in for \(Date().timeIntervalSince(opening)) s")
        // All closed within ten times the timeout.
        #expect(await allClosed(idle, before: opening.addingTimeInterval(10)))
        #expect(server.connections.count == 0)
        #expect(try await get("/", host: "127.0.0.1:\(port)", port: port).hasPrefix("HTTP/1.1 200"))
    }

    /// Past the limit of connections a newcomer displaces the one idle the longest, so idle
    /// connections cannot keep a page out and the server never holds more than the limit.
    @Test func pastTheLimitANewcomerDisplacesTheLongestIdle() async throws {
        let lines = LogLines()
        let log = ThrottledLog(prefix: "", burst: 20, window: .seconds(3600), write: lines.append)
        let (server, port) = try start(ViewerConnections.Limits(idleTimeout: .seconds(60), maximumConnections: 64), log: log)
        defer { server.stop() }
        var idle: [TestSocket] = []
        for _ in 0..<300 { idle.append(try #require(TestSocket(port: port))) }
        #expect(
            try await get("/", host: "127.0.0.1:\(port)", port: port).hasPrefix("HTTP/1.1 200"),
            "a page beside 300 idle connections")
        #expect(server.connections.count <= 64)
        // Which ones made way depends on when each was taken in, which the event loops decide.
        var closed = Set<Int>()
        _ = try await eventually(rounds: 1_000) {
            for (index, socket) in idle.enumerated() where !closed.contains(index) && socket.isClosedNow() {
                closed.insert(index)
            }
            return closed.count >= idle.count - 64
        }
        #expect(closed.count >= idle.count - 64, "\(closed.count) of \(idle.count) made way")
        // Each displacement is said, a web page's flood of them at most a burst of lines.
        let said = lines.all.withLock { $0 }
        #expect(said.count == 20, "\(said)")
        #expect(
            said.allSatisfy {
                $0.hasPrefix("closed a connection idle for ")
                    && $0.hasSuffix(" for a new one: 64 connections are open (the limit)")
            },
            "\(said)")
    }

    /// Only pages the hub took are kept when newcomers come past the limit: upgrades past its 16
    /// pages (refused, their close handshake never answered) make way like any idle connection.
    @Test func onlyPagesTheHubTookAreKeptPastTheLimit() async throws {
        let lines = LogLines()
        let log = ThrottledLog(prefix: "", burst: 100, window: .seconds(3600), write: lines.append)
        let (server, port) = try start(ViewerConnections.Limits(idleTimeout: .seconds(60), maximumConnections: 20), log: log)
        defer { server.stop() }
        var pages: [TestSocket] = []
        for _ in 0..<ViewerHub.maximumClients {
            let page = try #require(TestSocket(port: port))
            #expect(await page.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
            pages.append(page)
        }
        #expect(try await eventually(rounds: 1_000) { server.connections.pageCount == ViewerHub.maximumClients })
        var refused: [TestSocket] = []
        for _ in 0..<8 {
            let extra = try #require(TestSocket(port: port))
            _ = await extra.upgrade(host: "127.0.0.1:\(port)")
            refused.append(extra)
        }
        #expect(try await get("/", host: "127.0.0.1:\(port)", port: port).hasPrefix("HTTP/1.1 200"))
        #expect(server.connections.count <= 20)
        #expect(server.connections.pageCount == ViewerHub.maximumClients)
        for page in pages { #expect(!(await page.isClosed(within: 0.01)), "no page made way") }
        let said = lines.all.withLock { $0 }
        #expect(
            said.filter { $0 == "refused a page: \(ViewerHub.maximumClients) pages are connected (the limit)" }.count == 8,
            "\(said)")
    }

    /// A page that is connected and answers the WebSocket's pings is not idle, however long it
    /// sends nothing else.
    @Test func aConnectedPageThatReadsIsNotIdle() async throws {
        let (server, port) = try start(ViewerConnections.Limits(idleTimeout: .seconds(3), maximumConnections: 64))
        defer { server.stop() }
        let page = try #require(TestSocket(port: port))
        #expect(await page.upgrade(host: "127.0.0.1:\(port)").contains(" 101 "))
        let pings = await page.answerPings(for: 7)  // more than two timeouts
        #expect(pings.closed == false)
        #expect(pings.answered >= 3, "pinged three times a timeout: \(pings.answered) in 7 s")
    }
}

/// The lines a ``ThrottledLog`` wrote.
final class LogLines: Sendable {
    let all = Mutex<[String]>([])
    func append(_ line: String) { all.withLock { $0.append(line) } }
}

extension TestSocket {
    /// Reads the server's frames for `seconds`, answering each ping with its pong; how many it
    /// answered and whether the server closed the connection.
    func answerPings(for seconds: Double) async -> (answered: Int, closed: Bool) {
        var pending: [UInt8] = []
        var answered = 0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let (bytes, closed) = await receive(for: min(0.1, max(deadline.timeIntervalSinceNow, 0.001)))
            if closed { return (answered, true) }
            pending += bytes
            while pending.count >= 2 {
                let short = Int(pending[1] & 0x7F)
                let (length, start) =
                    short == 126
                    ? (pending.count >= 4 ? Int(pending[2]) << 8 | Int(pending[3]) : -1, 4)
                    : short == 127 ? (-1, 10) : (short, 2)
                guard length >= 0, pending.count >= start + length else { break }
                if pending[0] & 0x0F == 0x9 {
                    let payload = Array(pending[start..<(start + length)])
                    let mask: [UInt8] = [1, 2, 3, 4]
                    send(
                        [0x8A, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
                    )
                    answered += 1
                }
                pending.removeFirst(start + length)
            }
        }
        return (answered, false)
    }
}
