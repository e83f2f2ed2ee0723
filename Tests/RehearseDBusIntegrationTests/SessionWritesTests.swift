import Foundation
import IntegrationTestSupport
import Testing

/// How a session's replies and `Event` signals leave `rehearse serve` for a peer: gathered per
/// round of the service's loop and written in one `sendmsg` per peer (issue 40), byte for byte
/// what libdbus writes one message at a time to the bus.
@Suite(.serialized) struct SessionWritesTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent(
        "Tests/RehearseDBusIntegrationTests/session_client.py"
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

        let socket = bus.folder.appendingPathComponent("peer.sock").path
        let address = "unix:path=\(socket)"
        let calls = bus.folder.appendingPathComponent("sendmsg.txt").path
        let tracer = try bus.start(
            URL(fileURLWithPath: "/usr/bin/strace"),
            [
                "-f", "-qq", "-e", "trace=sendmsg", "-o", calls,
                Rehearse.productsFolder.appendingPathComponent("rehearse").path,
                "serve", "--no-bus", "--listen", address, "--mode", "manual",
            ], output: "serve.out", errorOutput: "serve.log")
        defer { endService(tracedBy: tracer) }
        #expect(bus.waitFor("ready: peers at \(address)", in: "serve.out", seconds: 30), "\(bus.contents(of: "serve.log"))")
        let overAPeer = try bus.run("/usr/bin/env", ["python3", Self.client, "trace", "login", address])
        #expect(overAPeer.status == 0, "\(overAPeer.errorOutput)")
        #expect(overAPeer.output == overTheBus.output)

        let events = overAPeer.output.split(separator: "\n").count
        let writes = bus.contents(of: "sendmsg.txt").split(separator: "\n").filter { $0.contains("sendmsg(") }.count
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

    /// Ends the service `tracer` (strace) started, and so strace: ended first, strace would leave
    /// the service running.
    private func endService(tracedBy tracer: Process) {
        let pid = tracer.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        PrivateBus.waitForExit(tracer)
    }
}
