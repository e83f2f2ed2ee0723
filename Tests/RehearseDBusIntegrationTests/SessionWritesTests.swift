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
    /// `Event`) to the daemon. (Before, each signal went to the daemon first.)
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
        #expect(String(writes.suffix(8)) == "RERERERE", "\(String(writes))")
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
                "-f", "-qq", "-s", "4096", "-e", "trace=sendmsg,sendto,writev",
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

    /// `count` `Inject`s, one at a time, from a libdbus peer at `address` that asked for the
    /// `Event` signals: for each, what the peer received until the reply, in order (`signal`,
    /// `reply`).
    private static func injectsHeardByLibdbusPeer(at address: String, count: Int) throws -> [String] {
        let connection = try BusConnection(.address(address))  // `Hello`, which the service answers
        try connection.addMatch("type='signal',interface='\(SimulatorInterface.interface)',member='Event'")
        let serials = MessageSerials()
        return try (0..<count).map { _ in
            var call = OutgoingMessage.methodCall(
                destination: SimulatorInterface.defaultName, path: SimulatorInterface.path,
                interface: SimulatorInterface.interface, member: "Inject")
            call.body.append("network")
            call.body.append(["online": FieldValue.bool(true)] as Fields)
            let made = try #require(call.make(serial: serials.take()))
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
