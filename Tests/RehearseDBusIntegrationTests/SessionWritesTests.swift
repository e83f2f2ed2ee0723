import CDBus
import Foundation
import IntegrationTestSupport
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import Testing

/// How a session's replies and `Event` signals leave `rehearse serve` for a peer: gathered per
/// round of the service's loop and written in one `sendmsg` per peer (issue 40), byte for byte
/// what libdbus writes one message at a time to the bus.
@Suite(.serialized) struct SessionWritesTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent(
        "Tests/RehearseDBusIntegrationTests/session_client.py"
    ).path
    private static let peerOrder = Rehearse.packageRoot.appendingPathComponent(
        "Tests/RehearseDBusIntegrationTests/peer_order.py"
    ).path

    /// A peer driving a login session (the shipped Python client, on jeepney) hears the same events,
    /// in the same order, as a client on the bus, while the service makes far fewer writes than it
    /// sends messages: `strace` (which starts the service, so it may trace it) counts its
    /// `sendmsg` calls. (Before, every signal and reply was a `sendmsg` of its own: more writes
    /// than events.)
    @Test func aPeersSessionOutputLeavesInFewWrites() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let overTheBus = try bus.run("/usr/bin/env", ["python3", Self.client, "trace", "login"])
        #expect(overTheBus.status == 0, "\(overTheBus.errorOutput)")

        let address = "unix:path=\(bus.folder.path)/peer.sock"
        let tracer = try serveTracingWrites(on: bus, ["--no-bus", "--listen", address])
        defer { endService(tracedBy: tracer) }
        let overAPeer = try bus.run("/usr/bin/env", ["python3", Self.client, "trace", "login", address])
        #expect(overAPeer.status == 0, "\(overAPeer.errorOutput)")
        #expect(overAPeer.output == overTheBus.output)

        let events = overAPeer.output.split(separator: "\n").count
        let writes = bus.contents(of: "writes.txt").split(separator: "\n").filter { $0.contains("sendmsg(") }.count
        #expect(events > 40, "\(overAPeer.output)")
        #expect(writes > 0 && writes * 2 < events, "\(writes) sendmsg calls for \(events) events")
    }

    /// A peer that asked for no signal gets none, and the service builds none for it: every
    /// message it builds takes a serial, so the replies to a peer's `Inject`s come with consecutive
    /// serials (before, each took the serial of an `Event` signal built for nobody, with no bus and
    /// no peer asking). A peer that asks for the signals gets one per `Inject`.
    @Test func signalsNobodyTakesAreNotBuilt() throws {
        let bus = try PrivateBus()
        let service = try bus.servePeersOnly(["--mode", "manual"])
        defer { bus.stop(service.process) }
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/peer_serials.py").path
        let unasked = try bus.run("/usr/bin/env", ["python3", script, service.address])
        #expect(unasked.status == 0, "\(unasked.errorOutput)")
        #expect(unasked.output == "1 1 1 1\n")
        let asked = try bus.run("/usr/bin/env", ["python3", script, service.address, "match"])
        #expect(asked.status == 0, "\(asked.errorOutput)")
        #expect(asked.output == "2 2 2 2\n")
    }

    /// A peer of a service that is on a bus too hears the `Event` signal of each of its `Inject`s
    /// before the reply, over libdbus (this process) and over jeepney; a client on the bus
    /// (`rehearse monitor`) hears every one of them, in order.
    @Test func aPeerHearsItsEventsBeforeTheReplyAndTheBusHearsThemAll() throws {
        let bus = try PrivateBus()
        let address = "unix:path=\(bus.folder.path)/peer.sock"
        try bus.serve(["--mode", "manual", "--listen", address])
        let monitor = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["monitor", "--address", bus.address, "network", "--count", "6", "--summary"],
            output: "summary.txt", errorOutput: "monitor.err")
        #expect(bus.waitFor(DBusTests.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")

        #expect(try Self.injectsHeardByLibdbusPeer(at: address, count: 3) == ["signal reply", "signal reply", "signal reply"])
        let jeepney = try bus.run("/usr/bin/env", ["python3", Self.peerOrder, address, "3", "match"])
        #expect(jeepney.status == 0, "\(jeepney.errorOutput)")
        #expect(jeepney.output == "signal reply\nsignal reply\nsignal reply\n")
        PrivateBus.waitForExit(monitor)
        #expect(bus.contents(of: "summary.txt") == "6 events, sequences 1...6, consecutive: yes\n")
    }

    /// The reply to a peer's `Inject` is written before the call's `Event` signal goes to the bus
    /// daemon: the peer's next call need not wait for the daemon's copy (Benchmarks/README.md,
    /// "D-Bus: against a C libdbus echo service"). `strace` shows the service's writes in order:
    /// each reply to the peer (a method return, `l\2`), then the signal (`l\4`, its member
    /// `Event`) to the daemon, or the signals of several calls in one write once the peer's next
    /// calls came while the service waited awake for them (`BusHold`): never a signal before the
    /// reply to its call. (Before, each signal went to the daemon first.)
    @Test func aPeersReplyIsWrittenBeforeTheBusCopyOfItsSignal() throws {
        let bus = try PrivateBus()
        let address = "unix:path=\(bus.folder.path)/peer.sock"
        let tracer = try serveTracingWrites(on: bus, ["--address", bus.address, "--listen", address])
        defer { endService(tracedBy: tracer) }
        let peer = try bus.run("/usr/bin/env", ["python3", Self.peerOrder, address, "4"])
        #expect(peer.status == 0, "\(peer.errorOutput)")
        #expect(peer.output == "reply\nreply\nreply\nreply\n")

        // "R" for a method return, "E" for an `Event` signal, in the order the service wrote them
        // (the first R answers the peer's `Hello`).
        let writes = bus.contents(of: "writes.txt").split(separator: "\n").compactMap { line -> Character? in
            if line.contains(#""l\2"#) { return "R" }
            return line.contains(#""l\4"#) && line.contains("Event") ? "E" : nil
        }
        #expect(writes.first == "R")
        let afterHello = Array(writes.dropFirst())
        let written = String(afterHello)
        #expect(afterHello.filter { $0 == "R" }.count == 4 && written.hasPrefix("R") && written.hasSuffix("E"), "\(written)")
        #expect(
            afterHello.indices.allSatisfy { end in
                afterHello[...end].filter { $0 == "E" }.count <= afterHello[...end].filter { $0 == "R" }.count
            }, "\(written)")
    }

    /// A peer's calls sent at once are answered a few to a round of the service's loop, and the
    /// bus daemon is sent the `Event` signals of a round in one write (`BusHold`); `rehearse
    /// monitor` on the bus hears every one, in order. (Before, each call's signal went to the
    /// daemon in a write of its own: 60 writes.)
    @Test func aPeersCallsSentAtOnceReachTheBusInFewWrites() throws {
        let bus = try PrivateBus()
        let address = "unix:path=\(bus.folder.path)/peer.sock"
        let tracer = try serveTracingWrites(on: bus, ["--address", bus.address, "--listen", address])
        defer { endService(tracedBy: tracer) }
        let monitor = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["monitor", "--address", bus.address, "network", "--count", "60", "--summary"],
            output: "summary.txt", errorOutput: "monitor.err")
        #expect(bus.waitFor(DBusTests.monitorIsReady, in: "monitor.err"), "\(bus.contents(of: "monitor.err"))")

        #expect(try Self.injectsSentAtOnceByLibdbusPeer(at: address, count: 60) == Array(1...60))
        PrivateBus.waitForExit(monitor)
        #expect(bus.contents(of: "summary.txt") == "60 events, sequences 1...60, consecutive: yes\n")
        let signalWrites = bus.contents(of: "writes.txt").split(separator: "\n").filter {
            $0.contains(#""l\4"#) && $0.contains("Event")
        }
        #expect(!signalWrites.isEmpty && signalWrites.count * 2 <= 60, "\(signalWrites.count) writes")
    }

    /// A signal held for the bus waits no longer than `BusHold.longestHold` or the call being
    /// answered: a peer's `Inject` sent in one write with 10 costly `IsVisible` calls (a query no
    /// node of a 2,000-node scene matches, so every node is looked at) has its `Event` signal on
    /// the bus, heard by a client there, before the peer has the last `IsVisible`'s answer.
    /// (Before, it was held until every call read with it was answered, and went out after.)
    @Test func aSignalHeldForTheBusDoesNotWaitForTheCostlyCallsReadWithIt() throws {
        let bus = try PrivateBus()
        let nodes = (0..<2_000).map {
            "    - {id: n\($0), kind: button, frame: [\($0 % 300), 0, 40, 44], text: \"button \($0)\"}"
        }
        let scenario = bus.folder.appendingPathComponent("big.yaml")
        try ("name: big scene\nsteps: []\nscene:\n  nodes:\n" + nodes.joined(separator: "\n") + "\n")
            .write(to: scenario, atomically: true, encoding: .utf8)
        let address = "unix:path=\(bus.folder.path)/peer.sock"
        try bus.serve(["--mode", "manual", "--listen", address, "--scenario", scenario.path])
        let watcher = try BusConnection(.address(bus.address))
        try watcher.addMatch("type='signal',interface='\(SimulatorInterface.interface)',member='Event'")
        let peer = try BusConnection(.address(address))

        let serials = MessageSerials()
        var calls = [try #require(Self.injectNetwork(serial: serials.take()))]
        for _ in 0..<10 {
            var call = OutgoingMessage.methodCall(
                destination: SimulatorInterface.defaultName, path: SimulatorInterface.path,
                interface: SimulatorInterface.interface, member: "IsVisible")
            call.body.appendVariant(.dictionary(["text": .string("no such text")]))
            calls.append(try #require(call.make(serial: serials.take())))
        }
        let lastSerial = dbus_message_get_serial(calls[calls.count - 1])
        try Self.send(calls, inOneWriteOn: peer)

        var signalHeard: ContinuousClock.Instant?
        var lastAnswered: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + .seconds(60)
        while lastAnswered == nil || signalHeard == nil, ContinuousClock.now < deadline {
            for connection in [watcher, peer] {
                _ = dbus_connection_read_write(connection.raw, 1)
                while let message = dbus_connection_pop_message(connection.raw) {
                    defer { dbus_message_unref(message) }
                    if dbus_message_is_signal(message, SimulatorInterface.interface, "Event") != 0 {
                        signalHeard = signalHeard ?? .now
                    } else if dbus_message_get_reply_serial(message) == lastSerial {
                        lastAnswered = .now
                    }
                }
            }
        }
        let heard = try #require(signalHeard, "no Event on the bus")
        let answered = try #require(lastAnswered, "no answer to the last IsVisible")
        #expect(heard < answered, "the Event came \(heard - answered) after the last answer")
    }

    /// A bus client's `Inject` (gdbus) is answered with one write to the daemon that holds the
    /// call's `Event` signal and then the reply (`l\2\1\1`, a method return), so the daemon is
    /// woken once, not once for each. (Before, libdbus wrote each with a `sendmsg` of its own.)
    @Test func aBusClientsSignalAndReplyLeaveInOneWrite() throws {
        let bus = try PrivateBus()
        let tracer = try serveTracingWrites(on: bus, ["--address", bus.address])
        defer { endService(tracedBy: tracer) }
        #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["network", "{'online': <true>}"]).output == "(uint64 1,)\n")
        let signals = bus.contents(of: "writes.txt").split(separator: "\n").filter {
            $0.contains(#""l\4"#) && $0.contains("Event")
        }
        #expect(signals.count == 1 && signals[0].contains(#"l\2\1\1"#), "\(signals)")
    }

    /// Starts `rehearse serve --mode manual` with `arguments` under `strace`, which writes every
    /// `sendmsg`, `sendto` and `writev` the service makes to the bus folder's `writes.txt` (the
    /// first 4,096 bytes of each), and waits until the service is ready.
    private func serveTracingWrites(on bus: PrivateBus, _ arguments: [String]) throws -> Process {
        let tracer = try bus.start(
            URL(fileURLWithPath: "/usr/bin/strace"),
            [
                "-f", "--seccomp-bpf", "-qq", "-s", "4096", "-e", "trace=sendmsg,sendto,writev",
                "-o", bus.folder.appendingPathComponent("writes.txt").path,
                Rehearse.productsFolder.appendingPathComponent("rehearse").path, "serve", "--mode", "manual",
            ] + arguments, output: "serve.out", errorOutput: "serve.log")
        #expect(bus.waitFor("ready: ", in: "serve.out", seconds: 30), "\(bus.contents(of: "serve.log"))")
        return tracer
    }

    /// Ends the service `tracer` (strace) started, and so strace: ended first, strace would leave
    /// the service running.
    private func endService(tracedBy tracer: Process) {
        let pid = tracer.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        PrivateBus.waitForExit(tracer)
    }

    /// A peer that asked for no `Event` signal has its reply built and written before the call's
    /// signal is even built, for the bus: messages built here take serials counting down, so the
    /// reply's serial is the one above the signal's that a client on the bus hears. (Before, the
    /// signal was built first, and its serial was the one above the reply's.) A peer that asked
    /// for them still hears the signal first (`aPeerHearsItsEventsBeforeTheReplyAndTheBusHearsThemAll`).
    @Test func aPeerTakingNoSignalHasItsReplyBeforeTheSignalIsBuilt() throws {
        let bus = try PrivateBus()
        let address = "unix:path=\(bus.folder.path)/peer.sock"
        try bus.serve(["--mode", "manual", "--listen", address])
        let watcher = try BusConnection(.address(bus.address))
        try watcher.addMatch("type='signal',interface='\(SimulatorInterface.interface)',member='Event'")
        let peer = try BusConnection(.address(address))
        let call = try #require(Self.injectNetwork(serial: 7))
        defer { dbus_message_unref(call) }
        let reply = try #require(
            dbus_connection_send_with_reply_and_block(peer.raw, call, 10_000, nil), "the peer got no reply")
        let replySerial = dbus_message_get_serial(reply)
        dbus_message_unref(reply)

        var signalSerial: UInt32?
        let deadline = ContinuousClock.now + .seconds(10)
        while signalSerial == nil, ContinuousClock.now < deadline, dbus_connection_read_write(watcher.raw, 100) != 0 {
            while let message = dbus_connection_pop_message(watcher.raw) {
                defer { dbus_message_unref(message) }
                if dbus_message_is_signal(message, SimulatorInterface.interface, "Event") != 0 {
                    signalSerial = dbus_message_get_serial(message)
                }
            }
        }
        #expect(signalSerial.map { $0 + 1 } == replySerial, "reply \(replySerial), signal \(String(describing: signalSerial))")
    }

    /// `count` `Inject`s of `network` sent at once (in one write to the socket) by a libdbus peer at
    /// `address` that asked for no signal; the sequences of the replies, in the order they came.
    private static func injectsSentAtOnceByLibdbusPeer(at address: String, count: Int) throws -> [UInt64] {
        let connection = try BusConnection(.address(address))  // `Hello`, answered: nothing is left to send
        let serials = MessageSerials()
        let calls = try (0..<count).map { _ in try #require(injectNetwork(serial: serials.take())) }
        try send(calls, inOneWriteOn: connection)
        var sequences: [UInt64] = []
        while sequences.count < count {
            guard dbus_connection_read_write(connection.raw, 10_000) != 0 else { throw BusFailure("the service went away") }
            while let message = dbus_connection_pop_message(connection.raw) {
                defer { dbus_message_unref(message) }
                guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_RETURN else { continue }
                var reader = MessageReader(message)
                sequences.append(try reader.uint64())
            }
        }
        return sequences
    }

    /// Writes `calls` (libdbus messages, which it releases) to `connection`'s socket in one write,
    /// past libdbus, which has nothing queued for it, so the service reads them together.
    private static func send(_ calls: [OpaquePointer], inOneWriteOn connection: BusConnection) throws {
        defer { calls.forEach { dbus_message_unref($0) } }
        var bytes: [UInt8] = []
        for call in calls {
            var buffer: UnsafeMutablePointer<CChar>?
            var length: Int32 = 0
            try #require(dbus_message_marshal(call, &buffer, &length) != 0)
            defer { dbus_free(buffer) }
            bytes += UnsafeRawBufferPointer(start: buffer, count: Int(length))
        }
        var socket: Int32 = -1
        try #require(dbus_connection_get_socket(connection.raw, &socket) != 0)
        #expect(bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) } == bytes.count)
    }

    /// An `Inject` of `network` (`online: true`) to the default session, numbered `serial`.
    private static func injectNetwork(serial: UInt32) -> OpaquePointer? {
        var call = OutgoingMessage.methodCall(
            destination: SimulatorInterface.defaultName, path: SimulatorInterface.path,
            interface: SimulatorInterface.interface, member: "Inject")
        call.body.append("network")
        call.body.append(["online": FieldValue.bool(true)] as Fields)
        return call.make(serial: serial)
    }

    /// `count` `Inject`s, one at a time, from a libdbus peer at `address` that asked for the
    /// `Event` signals: for each, what the peer received until the reply, in order (`signal`,
    /// `reply`).
    private static func injectsHeardByLibdbusPeer(at address: String, count: Int) throws -> [String] {
        let connection = try BusConnection(.address(address))  // `Hello`, which the service answers
        try connection.addMatch("type='signal',interface='\(SimulatorInterface.interface)',member='Event'")
        let serials = MessageSerials()
        return try (0..<count).map { _ in
            let made = try #require(injectNetwork(serial: serials.take()))
            dbus_connection_send(connection.raw, made, nil)
            dbus_message_unref(made)
            var received: [String] = []
            while received.last != "reply" {
                guard dbus_connection_read_write(connection.raw, 10_000) != 0 else { throw BusFailure("the service went away") }
                while let message = dbus_connection_pop_message(connection.raw) {
                    defer { dbus_message_unref(message) }
                    switch dbus_message_get_type(message) {
                    case DBUS_MESSAGE_TYPE_METHOD_RETURN: received.append("reply")
                    case DBUS_MESSAGE_TYPE_SIGNAL: received.append("signal")
                    case let kind: received.append("message of type \(kind)")
                    }
                }
            }
            return received.joined(separator: " ")
        }
    }
}
