import Foundation
import IntegrationTestSupport
import Testing

/// Issue 37: the live viewer's timeline simulates the file again and again (marking its events at
/// once, and for each scrub); it never calls the live simulation's command plugin programs, which
/// answer one simulation at a time, but an instance of each of its own.
@Suite struct ViewerPluginTests {
    /// `rehearse view` on a file with a command plugin that logs each call with its process id:
    /// the live simulation's program is installed twice (the loader's check, the live session) and
    /// gets no `Deliver` until driven; the tap of the timeline's run goes to the other. (Once, one
    /// program got every call, the three `Install`s in another order each start.)
    @Test func theTimelineNeverCallsTheLiveSimulationsProgram() throws {
        let bus = try PrivateBus()
        let file = bus.folder.appendingPathComponent("scenario.yaml")
        try Data(
            """
            name: a plugin beside the timeline
            plugins:
              - {id: logged, command: [python3, \(RemotePluginFaultTests.faultPlugin), log]}
            steps:
              - tap: {x: 160, y: 200}
              - wait: 0.1
            """.utf8
        ).write(to: file)
        let viewer = try bus.start(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["view", file.path, "--http", "127.0.0.1:0"], output: "view.out", errorOutput: "view.log")
        #expect(bus.waitFor("viewing:", in: "view.out", seconds: 30), "\(bus.contents(of: "view.log"))")
        #expect(bus.waitFor("Deliver", in: "calls.log", seconds: 30), "\(bus.contents(of: "calls.log"))")
        _ = PrivateBus.terminate(viewer)
        var calls: [String: [String]] = [:]
        for line in bus.contents(of: "calls.log").split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            calls[words[0], default: []].append(words[1])
        }
        #expect(calls.count == 2, "\(calls)")
        #expect(calls.values.contains(["Install", "Install"]), "the live program: \(calls)")
        #expect(
            calls.values.contains {
                $0.prefix(2) == ["Install", "Install"] && $0.dropFirst(2).allSatisfy { $0 == "Deliver" } && $0.count > 2
            },
            "the timeline's program: \(calls)")
    }
}
