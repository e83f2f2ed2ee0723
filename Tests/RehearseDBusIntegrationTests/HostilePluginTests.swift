import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse serve --listen` against plugins that misbehave (`RegisterPlugin` on a shared session,
/// plugin_attack.py): only the session a plugin belongs to waits for it, the service stops and
/// serves everyone else at once, and no call reaches anyone but the plugin it was made to.
@Suite struct HostilePluginTests {
    private static let script = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/plugin_attack.py")
        .path

    /// A session waiting for one of five plugins that never answer ends when its owner leaves:
    /// another peer is answered at once. (Once, the service's thread waited for the session's
    /// thread, which waited a second for each plugin in turn: five seconds for everyone.)
    @Test func aSessionWaitingForItsPluginsEndsAtOnceWhenItsOwnerLeaves() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "stall-close", address, "5"])
        let seconds = result.output.split(separator: " ").dropFirst(2).first.flatMap { Double($0) }
        // A moment is expected; waiting for the five plugins in turn took 4.7 s. The bound is 2 s:
        // ten times and more what a busy machine takes for the moment, under half the fault.
        #expect(seconds.map { $0 < 2 } == true, "\(result.output)\(result.errorOutput)\(bus.contents(of: "serve.log"))")
    }

    /// SIGTERM while a session waits for five plugins that never answer: the service is gone within
    /// a moment, not after a second for each plugin.
    @Test func theServiceStopsAtOnceWhileASessionWaitsForItsPlugins() throws {
        let bus = try PrivateBus()
        let (service, address, socket) = try bus.servePeersOnly(["--mode", "manual"])
        _ = try bus.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script, "stall", address, "5"], output: "stall.out")
        #expect(bus.waitFor("waiting", in: "stall.out", seconds: 20), "\(bus.contents(of: "serve.log"))")
        let stopped = PrivateBus.terminate(service)
        // The goal is 100 ms; the bound is twenty times that, and under half of the 4 s that
        // waiting for the five plugins in turn took.
        #expect(stopped < .seconds(2), "stopped after \(stopped)")
        #expect(service.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// A plugin's client that left is never called again, even once a newcomer's connection has
    /// the address its connection had, and its plugin fails at once. (Once, a newcomer got the
    /// departed plugin's `Deliver` calls, with another session's events, and could answer them.)
    @Test func aDepartedPluginsCallsReachNoNewcomer() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        for _ in 0..<4 {
            let result = try bus.run("/usr/bin/env", ["python3", Self.script, "reuse", address])
            let lines = result.output.split(separator: "\n")
            #expect(lines.last == "newcomers got []", "\(result.output)\(result.errorOutput)")
            // At once: the failure names the client's leaving; waiting out the deadline would say
            // "no answer within 1 s".
            #expect(lines.first == "inject ok failed: the plugin's client left before Deliver(tap)", "\(result.output)")
        }
    }

    /// A plugin that answers every event with 1,024 events it subscribes to: the cascade stops at
    /// its limit and the plugin is isolated, within bounded memory. (Once, one `Inject` never
    /// returned and the service grew until it was killed.)
    @Test func aPluginsEmitFanOutStopsAtTheCascadeLimit() throws {
        let bus = try PrivateBus()
        let (service, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "fanout", address, "\(service.processIdentifier)"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("inject ok") == true, "\(result.output)\(result.errorOutput)")
        #expect(lines.contains("get ok"))
        let peak = lines.last?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        #expect(peak.map { $0 < 400 } == true, "\(result.output)")
    }

    /// A plugin that answers every `Wake` with 1,024 wakes 0 s ahead: it is isolated at the limit of
    /// events waiting on the clock, and the `Advance` ends. (Once, it never did, and the timeline
    /// grew without bound.)
    @Test func aPluginsScheduleFanOutStopsAtThePendingLimit() throws {
        let bus = try PrivateBus()
        let (service, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "wakes", address, "\(service.processIdentifier)"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("advance ok") == true, "\(result.output)\(result.errorOutput)")
        let peak = lines.last?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        #expect(peak.map { $0 < 400 } == true, "\(result.output)")
    }

    /// One client registering hundreds of plugins with one session: past the limit each is
    /// refused with `Limit`, so no session reinstalls hundreds of plugins for each newcomer.
    @Test func registrationsPastTheLimitAreRefused() throws {
        let bus = try PrivateBus()
        let (_, address, _) = try bus.servePeersOnly(["--mode", "manual"])
        let result = try bus.run("/usr/bin/env", ["python3", Self.script, "register-many", address, "200"])
        #expect(result.output == "{'ok': 8, 'org.rehearse.Error.Limit': 192}\n", "\(result.output)\(result.errorOutput)")
    }
}
