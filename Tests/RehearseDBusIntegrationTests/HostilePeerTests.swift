import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse serve --listen` against peers that misbehave (Python raw sockets and jeepney, in
/// hostile_peer.py): the service keeps answering everyone else within a second, drops the
/// misbehaving peer with a log line, and stops promptly on SIGTERM whatever it is doing.
@Suite struct HostilePeerTests {
    private static let script = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/hostile_peer.py")
        .path

    /// `gdbus call` on the service at `address`, and how long it took.
    private func call(_ bus: PrivateBus, _ address: String, _ method: String, _ arguments: [String] = []) throws
        -> (result: CommandResult, seconds: Double)
    {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try bus.run(
            "/usr/bin/gdbus",
            [
                "call", "--address", address, "--dest", "org.rehearse.Simulator",
                "--object-path", "/org/rehearse/Simulator",
                "--method", "org.rehearse.Simulator1.\(method)",
            ] + arguments)
        let elapsed = (clock.now - start).components
        return (result, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    /// Whether the service at `address` answers `Get time` with a time past 0 within 30 s: an
    /// `Advance` started beside it is under way (reads are answered between its slices).
    private func clockMoves(_ bus: PrivateBus, _ address: String) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let output = try call(bus, address, "Get", ["time"]).result.output
            if let time = Double(output.trimmingCharacters(in: CharacterSet(charactersIn: "(<>,)\n"))), time > 0 { return true }
        }
        return false
    }

    /// `gdbus call ... Advance 1000000` on the service at `address`, left running: with the
    /// panner, whose scroll bar wants every frame, sixty million ticks (minutes of work).
    private func startMillionSecondAdvance(_ bus: PrivateBus, _ address: String) throws -> Process {
        try bus.start(
            URL(fileURLWithPath: "/usr/bin/gdbus"),
            [
                "call", "--address", address, "--dest", "org.rehearse.Simulator", "--object-path", "/org/rehearse/Simulator",
                "--timeout", "120", "--method", "org.rehearse.Simulator1.Advance", "1000000",
            ])
    }

    @Test func aPeerThatNeverAuthenticatesStallsNobodyAndIsDropped() throws {
        let bus = try PrivateBus()
        let (service, address, socket) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "silent", socket, "1", "30"],
            output: "silent.out")
        #expect(bus.waitFor("connected", in: "silent.out", seconds: 5))
        // Each call makes Event signals, which once blocked the service in a flush to the silent peer.
        for _ in 0..<3 {
            let (result, seconds) = try call(bus, address, "Inject", ["network", "{'online': <false>}"])
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(seconds < 2, "\(seconds) s: a blocked flush waits out the 5 s authentication timeout")
        }
        #expect(bus.waitFor("disconnected peer 1: not authenticated within 5.0 seconds", in: "serve.log", seconds: 8))
        #expect(try call(bus, address, "Get", ["time"]).result.output == "(<0.0>,)\n")
        PrivateBus.terminate(service)
        #expect(service.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// Sockets that connect and never authenticate hold at most 16 places: past that, each
    /// newcomer takes the place of the one that came first, as dbus-daemon does past its
    /// `max_incomplete_connections`, so 200 of them keep no prompt client out, and the
    /// authentication timeout still drops the last ones. (Once, they took all 64 places and
    /// every newcomer was closed until the first timed out.)
    @Test func socketsThatNeverAuthenticateKeepNoNewcomerOut() throws {
        let bus = try PrivateBus()
        let (_, address, socket) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "silent", socket, "200", "30"],
            output: "silent.out")
        #expect(bus.waitFor("connected", in: "silent.out", seconds: 20))
        let (result, _) = try call(bus, address, "Get", ["time"])
        #expect(result.output == "(<0.0>,)\n", "\(result.errorOutput)")
        let log = bus.contents(of: "serve.log")
        #expect(log.contains("disconnected peer 1: not authenticated while 16 peers were authenticating (the limit)"), "\(log)")
        #expect(!log.contains("refused peer") && !log.contains("not authenticated within"), "\(log)")
        #expect(bus.waitFor("disconnected peer 200: not authenticated within 5.0 seconds", in: "serve.log", seconds: 10))
    }

    /// A client that has said its SASL AUTH line keeps its place while 100 sockets that send the
    /// credentials byte and nothing more come after it: each of them makes room for the next, and
    /// the client says BEGIN and is answered. (Once, the one that came first made room: a flood
    /// of such sockets dropped every client in the middle of its handshake.)
    @Test func socketsThatNeverAuthenticateDropNoClientMidHandshake() throws {
        let bus = try PrivateBus()
        let (_, _, socket) = try bus.servePeersOnly(["--mode", "manual"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "mid-sasl", socket, "100"])
        #expect(
            result.output == "answered (('d', 0.0),)\n", "\(result.output)\(result.errorOutput)\(bus.contents(of: "serve.log"))")
        let log = bus.contents(of: "serve.log")
        #expect(log.contains("disconnected peer 2: not authenticated while 16 peers were authenticating (the limit)"), "\(log)")
        #expect(!log.contains("disconnected peer 1:"), "\(log)")
    }

    /// With 16 peers in the middle of their handshake (each said its AUTH line and stopped before
    /// BEGIN), a newcomer is closed with a line that says why, and none of them is dropped for
    /// it; once the authentication timeout drops them, newcomers are served.
    @Test func peersMidHandshakeAreNotDroppedForANewcomer() throws {
        let bus = try PrivateBus()
        let (_, address, socket) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "stalled", socket, "16", "30"],
            output: "stalled.out")
        #expect(bus.waitFor("stalled", in: "stalled.out", seconds: 20))
        #expect(try call(bus, address, "Get", ["time"]).result.status != 0)
        let log = bus.contents(of: "serve.log")
        #expect(log.contains("refused peer 17: 16 peers are authenticating (the limit), each past its first byte"), "\(log)")
        #expect(!log.contains("disconnected peer"), "\(log)")
        #expect(bus.waitFor("disconnected peer 16: not authenticated within 5.0 seconds", in: "serve.log", seconds: 10))
        #expect(try call(bus, address, "Get", ["time"]).result.output == "(<0.0>,)\n")
    }

    /// With every place taken by peers that authenticated and are not idle, a newcomer is closed
    /// with a line that says why.
    @Test func peersPastTheCapAreRefusedWithALogLine() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "idle", address, "64", "60"],
            output: "idle.out")
        #expect(bus.waitFor("connected 64", in: "idle.out", seconds: 20))
        #expect(try call(bus, address, "Get", ["time"]).result.status != 0)
        #expect(
            bus.contents(of: "serve.log").contains(
                "refused peer 65: 64 peers are connected (the limit) and none was idle for 60.0 seconds"),
            "\(bus.contents(of: "serve.log"))")
    }

    @Test func aPeerThatStopsReadingIsDisconnectedAndNoCallIsLost() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "unread", address, "60"],
            output: "unread.out")
        #expect(bus.waitFor("subscribed", in: "unread.out", seconds: 5))
        // About 170 bytes of Event signal each: 80,000 of them are past the 8 MiB backlog limit.
        let injected = try bus.run(
            Rehearse.productsFolder.appendingPathComponent("rehearse").path,
            ["inject", "--address", address, "--times", "80000", "network", "online=true"])
        #expect(injected.status == 0, "\(injected.errorOutput)")
        #expect(injected.output.hasPrefix("80000 injected, sequences 1...80000 in order, no other event between them"))
        #expect(bus.waitFor("bytes unread (the limit is 8388608)", in: "serve.log", seconds: 5))
        #expect(try call(bus, address, "Get", ["time"]).seconds < 2)  // about 20 ms
    }

    @Test func aLongAdvanceStreamsAndStopsWithinAMomentOfSIGTERM() throws {
        let bus = try PrivateBus()
        // The panner's scroll bar wants every frame: a million seconds are sixty million ticks.
        let (service, address, socket) = try bus.servePeersOnly(["--mode", "manual", "--plugins", "panner"])
        let advance = try startMillionSecondAdvance(bus, address)
        #expect(try clockMoves(bus, address))
        #expect(service.isRunning && advance.isRunning)
        let stopped = PrivateBus.terminate(service)
        // About 50 ms on a quiet machine (250 ms seen on a busy one); over ten times that. The
        // Advance it stops would take minutes.
        #expect(stopped < .seconds(3), "stopped after \(stopped)")
        #expect(service.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// A peer that asks for every signal, calls a long `Advance` and stops reading is dropped at
    /// the backlog limit while its own call runs; the service goes on serving, five times over.
    /// (Once, it then used the closed connection: a crash or a hang every time.)
    @Test func aPeerDroppedDuringItsOwnAdvanceLeavesTheServiceServing() throws {
        let bus = try PrivateBus()
        let (service, address, _) = try bus.servePeersOnly(["--mode", "manual", "--plugins", "panner"])
        let log = bus.folder.appendingPathComponent("serve.log").path
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "drop-mid-advance", address, log, "5"])
        #expect(
            result.output.hasPrefix("rounds 5, slowest Get "),
            "\(result.output)\(result.errorOutput)\(bus.contents(of: "serve.log"))")
        #expect(service.isRunning)
        PrivateBus.terminate(service)
        #expect(service.terminationStatus == 0)
    }

    /// While one peer's `Advance` of a million seconds runs, another peer connects (ten times),
    /// creates a session and calls it: 100 calls, p99 well under two seconds (about 80 ms on a busy
    /// two-core machine with a debug build; the goal is 100 ms, and this bound is twenty times it).
    @Test func anotherPeerIsServedDuringALongAdvance() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual", "--plugins", "panner"])
        let advance = try startMillionSecondAdvance(bus, address)
        #expect(try clockMoves(bus, address))
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "latency", address, "100"])
        #expect(advance.isRunning, "the Advance ended before the calls were measured")
        let p99 = result.output.split(separator: " ").dropFirst(4).first.flatMap { Double($0) }
        #expect(p99.map { $0 < 2000 } == true, "\(result.output)\(result.errorOutput)")
    }

    /// While one peer's `Advance` of a million seconds runs on the default session, another
    /// peer's calls that only read it (`Get`, `Snapshot`, `ListPlugins`, the properties,
    /// `Introspect`, `Peer.Ping`) are answered between its slices, with the time then; a caller's
    /// own calls to one session keep their order (its `Get` waits for its `Advance`), and its call
    /// to a session of its own is answered before them (sessions are not ordered with each
    /// other). (Once, a `Get` waited for the whole Advance: minutes.)
    @Test func readsAreAnsweredBetweenTheSlicesOfAnotherPeersAdvance() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual", "--plugins", "panner"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "reads", address])
        let answered = ["Get", "Snapshot", "ListPlugins", "Properties.Get", "Properties.GetAll", "Introspect", "Peer.Ping"]
            .map { #""\#($0)": "answered""# }.joined(separator: ", ")
        #expect(
            result.output == #"{"got": {\#(answered)}, "slowest under 2 s": true, "time then": "within the Advance", "#
                + #""own Get after own Advance": true, "own session's Get first": true}"# + "\n",
            "\(result.output)\(result.errorOutput)")
    }

    /// Set-ups are read off the service's thread: while one peer's pipelined `CreateSession`
    /// calls, each an alias bomb inside every size limit (a quarter of a second each to refuse),
    /// are read, another peer's calls are answered at once. (Once, 30 of them stalled every
    /// client for seconds.)
    @Test func readingSetUpsHoldsNobodyElse() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "bombs", address, "30"], output: "bombs.out")
        #expect(bus.waitFor("sent", in: "bombs.out", seconds: 20))
        var slowest = 0.0
        for _ in 0..<5 {
            let (result, seconds) = try call(bus, address, "Get", ["time"])
            #expect(result.output == "(<0.0>,)\n", "\(result.errorOutput)")
            slowest = max(slowest, seconds)
        }
        // About 20 ms a call (gdbus starting included); the bombs take several seconds in all.
        #expect(slowest < 2, "slowest call \(slowest) s")
        // Sessions being built count against the client's 8: the other 22 are refused at once.
        #expect(
            bus.waitFor(
                "{'org.rehearse.Error.InvalidScenario': 8, 'org.rehearse.Error.Limit': 22}", in: "bombs.out", seconds: 60),
            "\(bus.contents(of: "bombs.out"))")
    }

    /// A bus client that leaves during its own `Advance` of the default session (killed, say)
    /// ends the `Advance` with it: the next client's call is answered within moments, not after
    /// sixty million ticks. (Once, a dead client's call held the default session for 40 minutes.)
    @Test func aBusClientsAdvanceEndsWhenTheClientLeaves() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "panner"])
        let advance = try startMillionSecondAdvance(bus, bus.address)
        #expect(try clockMoves(bus, bus.address))
        #expect(advance.isRunning)
        kill(advance.processIdentifier, SIGKILL)
        PrivateBus.waitForExit(advance)
        let clock = ContinuousClock()
        let start = clock.now
        let time = try bus.gdbus("org.rehearse.Simulator1.Get", ["time"])
        // About 0.1 s once the Advance stops; gdbus gives up at 25 s.
        #expect(time.status == 0, "\(time.errorOutput)")
        #expect(clock.now - start < .seconds(10))
    }

    /// Only this user's programs may be peers: the socket file is the user's alone (0600), and on
    /// an abstract socket, which has no file, another user's connection is refused as it comes,
    /// before it can hold a place. (Once, another user's 64 unauthenticated sockets kept
    /// everyone out.) Needs root, to connect as another user.
    @Test(.enabled(if: getuid() == 0, "switching to another user needs root"))
    func onlyThisUsersProgramsArePeers() throws {
        let bus = try PrivateBus()
        let (_, _, socket) = try bus.servePeersOnly(["--mode", "manual"])
        let permissions = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let name = "rehearse-test-\(UUID().uuidString)"
        _ = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--no-bus", "--mode", "manual", "--listen", "unix:abstract=\(name)"],
            output: "abstract.out", errorOutput: "abstract.log")
        #expect(bus.waitFor("ready: peers at unix:abstract=\(name)", in: "abstract.out", seconds: 10))
        let connect = "import socket, time; s = socket.socket(socket.AF_UNIX); s.connect('\\0\(name)'); time.sleep(1)"
        let other = try bus.run(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", connect])
        #expect(other.status == 0, "\(other.errorOutput)")
        #expect(
            bus.waitFor("refused peer 1: it runs as another user", in: "abstract.log", seconds: 5),
            "\(bus.contents(of: "abstract.log"))")
    }

    /// With every peer place taken by peers that authenticated and then sent nothing, a newcomer
    /// takes the place of the one idle longest (past `--idle-peer-timeout`). (Once, 64 idle
    /// peers kept everyone out for as long as they liked.)
    @Test func idlePeersMakeRoomForANewcomerWhenEveryPlaceIsTaken() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual", "--idle-peer-timeout", "1"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "idle", address, "64", "60"],
            output: "idle.out")
        #expect(bus.waitFor("connected 64", in: "idle.out", seconds: 20))
        Thread.sleep(forTimeInterval: 1.5)  // the 64 peers idle past the 1 s timeout: time that must pass
        let (result, _) = try call(bus, address, "Get", ["time"])
        #expect(result.output == "(<0.0>,)\n", "\(result.errorOutput)")
        #expect(
            bus.contents(of: "serve.log").contains(
                "disconnected peer 1: it sent nothing for 1.0 seconds while 64 peers were connected"),
            "\(bus.contents(of: "serve.log"))")
    }

    @Test func scenarioTextHasTheScenarioFilesLimitAndEventCountIsUnsigned() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        // A legitimate scenario of about 900 KiB: far past an event string's 64 KiB.
        let padding = String(repeating: "# a comment line to make the file large\n", count: 23_000)
        let file = bus.folder.appendingPathComponent("large.yaml")
        try Data("name: large\nplugins: [gateway]\n\(padding)steps: []\n".utf8).write(to: file)
        #expect(try bus.run("/usr/bin/env", ["python3", Self.script, "load", address, file.path]).output == "ok\n")
        #expect(try call(bus, address, "Get", ["gateway.child"]).result.output == "(<'login'>,)\n")
        let all = try bus.run(
            "/usr/bin/gdbus",
            [
                "call", "--address", address, "--dest", "org.rehearse.Simulator",
                "--object-path", "/org/rehearse/Simulator", "--method",
                "org.freedesktop.DBus.Properties.GetAll", "org.rehearse.Simulator1",
            ])
        #expect(all.output.contains("'EventCount': <uint64 "), "\(all.output)")
    }

    /// A client that writes thousands of calls to its session at once gets `Limit` errors past the
    /// session's queue (1,000 calls), the rest answered, and the service still answers others.
    @Test func aFloodedSessionRefusesPastItsQueueAndEveryCallGetsAnAnswer() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual", "--plugins", "login-animator"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "flood", address, "6000"])
        let counts = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(counts.hasPrefix("{'answered': "), "\(counts)\(result.errorOutput)")
        #expect(counts.contains("'org.rehearse.Error.Limit': "), "\(counts)")
        #expect(try call(bus, address, "Get", ["time"]).result.output == "(<0.0>,)\n")
    }
}
