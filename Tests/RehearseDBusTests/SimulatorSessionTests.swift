import Foundation
import RehearseCore
@testable import RehearseDBus
import RehearsePlugins
import RehearseScenario
import Testing

/// The methods of `org.rehearse.Simulator1` called directly on a session, no bus and no libdbus:
/// each error is the named one a client would get.
struct SimulatorSessionTests {
    private func session(_ yaml: String = "name: s\nplugins: [gateway]\nsteps: []\n",
                         mode: ClockMode = .manual) throws -> SimulatorSession {
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(yaml.utf8), file: "setup")
        return try SimulatorSession(setup: setup, registry: shippedPlugins, mode: mode)
    }

    /// The error name `body` fails with, or nil when it succeeds.
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let failure as MethodFailure {
            return failure.name
        } catch {
            return "not a MethodFailure: \(error)"
        }
    }

    @Test func injectionsAnswerTheirSequenceAndNameTheirErrors() throws {
        let session = try session()
        #expect(try session.inject("network", ["online": false]) == 1)
        #expect(try session.injectStrings("login.submit", [("username", "vijay")]) == 2)
        #expect(failure { _ = try session.inject("netwrok", [:]) } == SimulatorError.unknownEvent)
        #expect(failure { _ = try session.inject("login.submit", ["user": "x"]) } == SimulatorError.invalidField)
        #expect(failure { _ = try SimulatorSession.injectionTime(.infinity) } == SimulatorError.invalidField)
        #expect(session.takeDeliveredEvents().map(\.event.name) == ["network", "login.submit"])
        #expect(session.takeDeliveredEvents().isEmpty)
    }

    @Test func eventsWaitingOnTheClockAreCapped() throws {
        let session = try session()
        let later = try SimulatorSession.injectionTime(100)
        for _ in 0..<SimulatorSession.maximumPendingEvents {
            _ = try session.inject("network", ["online": true], at: later)
        }
        #expect(failure { _ = try session.inject("network", ["online": true], at: later) } == SimulatorError.limit)
        #expect(try session.advance(by: 100) { true } == 100)
        #expect(session.takeDeliveredEvents().count == SimulatorSession.maximumPendingEvents)
        _ = try session.inject("network", ["online": true], at: try SimulatorSession.injectionTime(200))
    }

    @Test func aLongAdvanceRunsInSlicesAndStopsWhenAsked() throws {
        // The panner's scroll bar wants every frame: 60 ticks a second.
        let session = try session("name: s\nplugins: [panner]\nsteps: []\n")
        var slices = 0
        let reached = try session.advance(by: 1000) {
            slices += 1
            // Every slice's events are there to be sent, never more than a slice's worth.
            #expect(session.takeDeliveredEvents().count <= SimulatorSession.advanceSlice)
            return slices < 3
        }
        #expect(slices == 3)
        #expect(reached < 1000)
        #expect(try session.advance(by: 1) { true } == reached + 1)
        #expect(failure { _ = try session.advance(by: 1e7) { true } } == SimulatorError.invalidField)
        let realtime = try self.session(mode: .realtime)
        #expect(failure { _ = try realtime.advance(by: 1) { true } } == SimulatorError.wrongMode)
    }

    @Test func setUpMethodsRebuildOrChangeNothing() throws {
        let session = try session()
        #expect(failure { try session.loadScenario("name: [") } == SimulatorError.invalidScenario)
        #expect(failure { try session.configure("gatway", [:]) } == SimulatorError.unknownPlugin)
        #expect(failure { try session.configure("gateway", ["transition": "spin"]) } == SimulatorError.invalidField)
        #expect(try session.value(at: "gateway.child") == "login")
        try session.configure("gateway", ["transition": "fade"])
        #expect(session.setup.plugins.map(\.id) == ["gateway"])
        try session.loadScenario("name: l\nplugins: [login-animator]\nsteps: []\n")
        #expect(session.plugins().filter(\.installed).map(\.id) == ["login-animator"])
        #expect(failure { _ = try session.value(at: "gateway.child") } == SimulatorError.unknownPath)
        #expect(session.properties["Mode"] == "manual")
        #expect(session.properties["EventCount"] == 0)
    }
}
