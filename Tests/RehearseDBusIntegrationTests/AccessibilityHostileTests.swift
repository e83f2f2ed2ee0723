import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse serve --atspi` attacked on the accessibility bus (issue 41's "Done when"): a daemon
/// that stops reading, clients that flood or never read, huge arguments, a bus that goes away.
/// Throughout, the service answers on its own bus and its memory stays bounded. Nested in
/// ``AccessibilityBusTests`` so that the two run one test at a time: these load both cores, and
/// beside them the pyatspi listeners there were seen to miss an event.
extension AccessibilityBusTests {
    @Suite struct AccessibilityHostileTests {
        static let attack = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/atspi_attack.py").path

        /// A scenario (written in `bus`'s folder) whose scroll view `list` holds 1,000 rows: every
        /// drag of it moves them all, 1,000 `BoundsChanged` in one check.
        static func thousandRows(in bus: PrivateBus) throws -> String {
            let rows = (0..<1_000).map {
                "    - {id: row\($0), kind: label, text: Row \($0), frame: [0, \($0 * 50), 320, 50], parent: list}\n"
            }
            let text = """
                name: A thousand rows
                scene:
                  nodes:
                    - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 50000]}
                \(rows.joined())steps: []

                """
            let file = bus.folder.appendingPathComponent("rows.yaml")
            try Data(text.utf8).write(to: file)
            return file.path
        }

        /// What `process` holds in memory now (`VmRSS`), in bytes.
        static func residentBytes(of process: Process) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1_024
        }

        /// The accessibility bus's daemon stopped (SIGSTOP): nothing it is sent is read, so what the
        /// export sends waits in the service. 150 drags of 1,000 rows announce some 70 MB of
        /// `BoundsChanged` (a 1,000-row drag is about 470 KB): the export stops at its limit, says so
        /// once, and the service answers on its own bus all along; once the daemon goes on, it catches up.
        @Test func aStoppedAccessibilityDaemonHoldsTheExportAtItsLimit() throws {
            let bus = try AccessibilityBusTests.accessibilityBus()
            let serve = try bus.serve(
                ["--mode", "manual", "--scenario", try Self.thousandRows(in: bus), "--atspi"], errorOutput: "serve.log")
            let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
            let daemon = try peer.daemon()
            let before = try Self.residentBytes(of: serve)
            kill(daemon, SIGSTOP)
            defer { kill(daemon, SIGCONT) }
            let driven = try bus.run("/usr/bin/python3", [Self.attack, "drive", "150"])
            #expect(driven.output.hasPrefix("driven 150,"), "\(driven.output)\(driven.errorOutput)")
            let grown = try Self.residentBytes(of: serve) - before
            #expect(grown < 32 << 20, "the service grew by \(grown) bytes")
            #expect(
                bus.contents(of: "serve.log").contains(
                    "(the limit is 8388608): its calls and events wait until it reads\n"), "\(bus.contents(of: "serve.log"))")
            let time = try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output
            #expect(time == "(<60.0>,)\n", "\(time)")
            kill(daemon, SIGCONT)
            #expect(
                bus.waitFor(
                    "the accessibility bus read what waited: its calls are answered and events sent again\n", in: "serve.log"),
                "\(bus.contents(of: "serve.log"))")
            #expect(try peer.call(AccessibilityBusTests.node + "row0", "org.a11y.atspi.Accessible.GetRoleName") == "('label',)\n")
        }
    }
}

extension AccessibilityBusTests.AccessibilityHostileTests {
    /// A client on the accessibility bus asks for every signal, writes 10,000
    /// `GetAccessibleAtPoint` calls in one go and never reads again, while 20 drags move 1,000
    /// rows: the service answers on its own bus as it comes, the export answers every call in turn
    /// (another client's after the flood), and neither what the daemon holds for the client nor
    /// the calls grow the service.
    @Test func aClientThatFloodsAndNeverReadsGrowsNothingAndDelaysOnlyTheAccessibilityBus() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        let serve = try bus.serve(
            ["--mode", "manual", "--scenario", try Self.thousandRows(in: bus), "--atspi"], errorOutput: "serve.log")
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
        let before = try Self.residentBytes(of: serve)
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [Self.attack, "flood", peer.address, peer.application, "row0", "10000", "120"], output: "flood.out",
            errorOutput: "flood.log")
        #expect(bus.waitFor("flooded\n", in: "flood.out", seconds: 60), "\(bus.contents(of: "flood.log"))")
        let driven = try bus.run("/usr/bin/python3", [Self.attack, "drive", "20"])
        #expect(driven.output.hasPrefix("driven 20,"), "\(driven.output)\(driven.errorOutput)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<8.0>,)\n")
        #expect(try peer.call(AccessibilityBusTests.node + "row0", "org.a11y.atspi.Accessible.GetRoleName") == "('label',)\n")
        let grown = try Self.residentBytes(of: serve) - before
        #expect(grown < 32 << 20, "the service grew by \(grown) bytes")
        #expect(bus.contents(of: "serve.log") == "")
    }

    /// `InsertText` of 100 MB (a message under D-Bus's 128 MiB, which the daemon passes on) is
    /// read and refused by the 64 KiB string limit, and the export goes on.
    @Test func aHugeInsertTextIsRefusedAndTheExportGoesOn() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", AccessibilityBusTests.scenario, "--atspi"], errorOutput: "serve.log")
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
        let huge = try bus.run("/usr/bin/python3", [Self.attack, "huge", peer.address, peer.application, "100000000"])
        #expect(huge.output == "org.freedesktop.DBus.Error.InvalidArgs\n", "\(huge.errorOutput)")
        #expect(try peer.call(AccessibilityBusTests.node + "username", "org.a11y.atspi.Accessible.GetRoleName") == "('text',)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["username.text"]).output == "(<''>,)\n")
    }

    /// The accessibility bus's daemon killed: the service says so on standard error and goes on
    /// serving its own bus.
    @Test func aBusThatGoesAwayIsSaidAndTheServiceGoesOn() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", AccessibilityBusTests.scenario, "--atspi"], errorOutput: "serve.log")
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
        kill(try peer.daemon(), SIGKILL)
        #expect(
            bus.waitFor(
                "rehearse: the accessibility bus went away: the simulation is no longer exported there\n", in: "serve.log"),
            "\(bus.contents(of: "serve.log"))")
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"])
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["firstResponder"]).output == "(<'username'>,)\n")
    }
}

extension AccessibilityBusTests.AccessibilityHostileTests {
    /// A path of 50 MB (no node's is that long) is refused unread: decoded and quoted, it held the
    /// thread that serves the session (the service's own bus with it) for some 30 s.
    @Test func aPathLongerThanEveryNodesIsRefusedAtOnce() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", AccessibilityBusTests.scenario, "--atspi"], errorOutput: "serve.log")
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
        let answer = try bus.run("/usr/bin/python3", [Self.attack, "longpath", peer.address, peer.application, "50000000"])
        let lines = answer.output.split(separator: "\n").map(String.init)
        let refusal =
            "org.freedesktop.DBus.Error.UnknownObject no accessible object at a path of 50000000 bytes: "
            + "no node's is longer than 59 now"
        #expect(lines.first == refusal, "\(answer.output.prefix(300))\(answer.errorOutput)")
        // Well under a second here; the daemon passing 50 MB on takes most of it.
        let seconds = try #require(lines.last.flatMap { Double($0) }, "\(answer.output)")
        #expect(seconds < 10, "answered after \(seconds) s")
        #expect(try peer.call(AccessibilityBusTests.node + "username", "org.a11y.atspi.Accessible.GetRoleName") == "('text',)\n")
    }

    /// Calls written in one go are answered from the scene as the calls before them left it:
    /// `GetText` after `InsertText` reads what it typed (it read the text from before the round).
    @Test func callsInOneWriteSeeWhatTheCallsBeforeThemChanged() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        try bus.serve(["--mode", "manual", "--scenario", AccessibilityBusTests.scenario, "--atspi"])
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)
        let answers = try bus.run("/usr/bin/python3", [Self.attack, "pipeline", peer.address, peer.application])
        #expect(answers.output == "(True,)\n('ab',)\n(('i', 2),)\n", "\(answers.errorOutput)")
    }

    /// `serve --atspi` while the accessibility bus's daemon is stopped (SIGSTOP): it accepts the
    /// connection and never answers, and libdbus's registration waited for it without end. The
    /// join gives up after 5 s (`AccessibilityBus.callTimeoutMilliseconds`) and says why.
    @Test func serveGivesUpOnAStoppedAccessibilityDaemonAndSaysSo() throws {
        let bus = try AccessibilityBusTests.accessibilityBus()
        let peer = try AccessibilityBusTests.AccessibilityPeer(bus)  // starts the launcher, its bus and the registry
        let daemon = try peer.daemon()
        kill(daemon, SIGSTOP)
        defer { kill(daemon, SIGCONT) }
        let serve = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["serve", "--address", bus.address, "--scenario", AccessibilityBusTests.scenario, "--atspi"],
            errorOutput: "serve.log")
        #expect(bus.waitFor("\n", in: "serve.log", seconds: 50), "still waiting after 50 s")
        PrivateBus.waitForExit(serve)
        #expect(!serve.isRunning && serve.terminationStatus == 2)
        #expect(
            bus.contents(of: "serve.log")
                == "rehearse serve: --atspi: the accessibility bus did not let the application join: cannot register on the "
                + "bus at \(peer.address): its daemon did not answer within 5000 ms (is it stopped?)\n")
        #expect(try !bus.hasOwner("org.rehearse.Simulator"))
    }
}
