import Foundation
import Testing

/// Issue 28: a plugin registers with a created session of `rehearse serve` over the bus
/// (`RegisterPlugin` on the session) and takes part in lockstep; its faults are its session's
/// alone. The plugin and the driver are `bus_plugin.py`, two jeepney connections.
@Suite(.serialized) struct RemotePluginBusTests {
    private static let client = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/bus_plugin.py").path

    private func run(_ mode: String) throws -> CommandResult {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        return try bus.run("/usr/bin/env", ["python3", Self.client, mode])
    }

    @Test func aRegisteredPluginAnswersEachTapInLockstep() throws {
        let result = try run("count")
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("tap ") }.count == 2, "\(result.output)")
        // Each tap is followed at once by the plugin's answer: lockstep, not after the fact.
        let names = lines.compactMap { $0.split(separator: " ").first }
        #expect(names == ["tap", "probe.tapped", "tap", "probe.tapped", "count"], "\(result.output)")
        #expect(lines.contains(#"probe.tapped {"count": 2}"#))
        #expect(lines.last == "count 2")
    }

    @Test func aPluginWhoseClientLeavesFailsAtOnceAndTheServiceGoesOn() throws {
        let result = try run("leave")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("took under 0.5 s"), "\(result.output)")
        #expect(result.output.contains(#""error": "the plugin's client left during Deliver(tap)""#), "\(result.output)")
    }

    @Test func aSlowPluginHoldsUpItsOwnSessionOnly() throws {
        let result = try run("slow")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("other session under 0.5 s"), "\(result.output)")
        #expect(result.output.contains(#""error": "no answer within 1 s to Deliver(tap)""#), "\(result.output)")
    }

    @Test func theDefaultSessionTakesNoPlugin() throws {
        let result = try run("default")
        #expect(result.output.hasPrefix("org.rehearse.Error.NotPermitted plugins register with a created session"), "\(result.output)\(result.errorOutput)")
    }
}
