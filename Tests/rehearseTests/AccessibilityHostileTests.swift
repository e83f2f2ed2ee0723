import Foundation
import Testing

/// `rehearse serve --atspi` attacked on the accessibility bus (issue 41's "Done when"): a daemon
/// that stops reading, clients that flood or never read, huge arguments, a bus that goes away.
/// Throughout, the service answers on its own bus and its memory stays bounded.
@Suite(.serialized) struct AccessibilityHostileTests {
    static let attack = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/atspi_attack.py").path

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
