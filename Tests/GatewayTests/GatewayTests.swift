import LoginEvents
import RehearseCore
import RehearseTesting
import Testing

@testable import Gateway

private func harness(
    _ configure: (inout Gateway.Configuration) -> Void = { _ in },
    scene extra: (Scene) throws -> Void = { _ in }
) throws -> PluginHarness<Gateway> {
    var configuration = Gateway.Configuration()
    configure(&configuration)
    let harness = try PluginHarness(Gateway.self, configuration: configuration) { scene in
        try Gateway.scene?.build(scene)
        try extra(scene)
    }
    harness.exhaustive = false
    return harness
}

private func submit(_ username: String) -> Event { .custom(name: "login.submit", fields: ["username": .string(username)]) }

@Suite struct GatewayTests {
    /// The invariant the fix promises: one child, except while a transition shows two.
    @Test func aSecondChildOutsideATransitionBreaksTheInvariant() throws {
        let harness = try harness { $0.transition = .fade }
        harness.send(submit("vijay"))
        harness.advance(by: 0.6)
        #expect(harness.value("children") == ["home", "login"] || harness.value("children") == ["login", "home"])
        harness.advance(by: 0.5)
        #expect(harness.brokenInvariants.isEmpty, "two children during the fade only")
        try harness.simulation.scene.add(Node(id: "intruder", kind: .view, frame: .zero))
        harness.send(.network(NetworkChange(online: true)))
        #expect(harness.brokenInvariants == ["exactly one child"])
    }

    @Test func loggedOutEmbedsOnlyTheLoginChildFullScreen() throws {
        let harness = try harness()
        #expect(harness.value("children") == ["login"])
        #expect(harness.value("gateway.status") == "loggedOut")
        #expect(harness.value("login.frame") == Rect(x: 0, y: 0, width: 320, height: 568).fieldValue)
    }

    /// The authenticator answers after its latency (0.5 s by default); success logs in with a key
    /// that only ever shows as <redacted>.
    @Test func aSuccessfulLoginShowsHomeAfterTheLatency() throws {
        let harness = try harness()
        harness.send(submit("vijay"))
        harness.advance(by: 0.499)
        #expect(harness.value("children") == ["login"])
        harness.advance(by: 0.001)
        harness.receive("gateway.changed", ["status": "loggedIn", "child": "home"])
        harness.receive("login.succeeded", ["username": "vijay"])
        #expect(harness.value("children") == ["home"])
        #expect(harness.value("gateway.apiKey") == .string(Redaction.placeholder))
        #expect(!harness.delivered.map(\.traceLine).joined().contains("key-"))
        harness.send(.custom(name: "logout", fields: [:]))
        #expect(harness.value("children") == ["login"])
        #expect(harness.value("gateway.apiKey") == "")
    }

    @Test func unknownUsersAndAFailingAuthenticatorAreRefused() throws {
        let listed = try harness { $0.authenticator.users = ["vijay"] }
        listed.send(submit("mallory"))
        listed.advance(by: 1)
        listed.receive("login.failed", ["username": "mallory", "reason": "unknown user"])
        #expect(listed.value("children") == ["login"])
        let failing = try harness { $0.authenticator.fail = true }
        failing.send(submit("vijay"))
        failing.advance(by: 1)
        failing.receive("login.failed", ["reason": "the authenticator refused"])
    }

    /// The original rebuilt the child on every status assignment; here a logout while logged out
    /// changes nothing: no event, and the child keeps its state.
    @Test func theChildIsRebuiltOnlyWhenTheStatusReallyChanges() throws {
        let harness = try harness()
        try harness.simulation.setValue("typed", at: "login.text")
        harness.send(.custom(name: "logout", fields: [:]))
        #expect(harness.deliveredNames().filter { $0 == "gateway.changed" }.isEmpty)
        #expect(harness.value("login.text") == "typed")
        harness.send(submit("vijay"))
        harness.advance(by: 1)
        harness.send(.custom(name: "logout", fields: [:]))
        #expect(harness.value("login.text") == "login")
    }

    /// During a fade both children are there and readable; after it only the new one.
    @Test(arguments: [Gateway.Transition.fade, .flip])
    func transitionsShowBothChildrenOnlyWhileTheyRun(transition: Gateway.Transition) throws {
        let harness = try harness { $0.transition = transition }
        harness.send(submit("vijay"))
        harness.advance(by: 0.5)
        #expect(harness.value("children") == ["login", "home"])
        #expect(harness.value("gateway.transitioning") == true)
        #expect(harness.value("gateway.previousChild") == "login")
        harness.advance(by: 0.15)
        let key = transition == .fade ? "home.presentation.alpha" : "home.presentation.frame.width"
        let middle = harness.number(key)
        #expect(middle > 0 && middle < (transition == .fade ? 1 : 320))
        harness.advance(by: 0.15)
        #expect(harness.value("children") == ["home"])
        #expect(harness.value("gateway.transitioning") == false)
    }

    @Test func theConnectivityGateShowsOfflineAndRestoresTheRightChild() throws {
        let harness = try harness { $0.connectivityGate = true }
        harness.send(.network(NetworkChange(online: false)))
        #expect(harness.value("children") == ["offline"])
        harness.send(submit("vijay"))
        harness.advance(by: 1)
        #expect(harness.value("children") == ["offline"])
        harness.send(.network(NetworkChange(online: true)))
        #expect(harness.value("children") == ["home"])
    }

    @Test func lockedSectionsShowTheLoginUntilLoggedIn() throws {
        let harness = try harness(
            { $0.sections = ["settings": true, "about": false] },
            scene: { scene in
                try scene.add(Node(id: "settings", kind: .view, frame: .zero))
                try scene.add(Node(id: "about", kind: .view, frame: .zero))
            })
        harness.send(.custom(name: "gateway.navigate", fields: ["section": "about"]))
        #expect(harness.value("children") == ["about"])
        harness.send(.custom(name: "gateway.navigate", fields: ["section": "settings"]))
        #expect(harness.value("children") == ["login"])
        harness.send(submit("vijay"))
        harness.advance(by: 1)
        #expect(harness.value("children") == ["settings"])
    }

    /// Invariants after every step of a long random sequence: exactly one child embedded (two
    /// only while a transition runs), and no API key in any delivered event.
    @Test(arguments: [Gateway.Transition.none, .fade])
    func invariantsHoldThroughARandomSequence(transition: Gateway.Transition) throws {
        let harness = try harness {
            $0.transition = transition
            $0.connectivityGate = true
            $0.authenticator.users = ["vijay", "sam"]
            $0.authenticator.latency = 0.2
        }
        let children: Set<String> = ["login", "home", "offline"]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: harness.send(submit(["vijay", "sam", "mallory"].randomElement(using: &random) ?? ""))
            case 1: harness.send(.custom(name: "logout", fields: [:]))
            case 2: harness.send(.network(NetworkChange(online: Bool.random(using: &random))))
            case 3: harness.send(.tap(Tap(point: Point(x: 10, y: 10))))
            default: harness.advance(by: Double(Int.random(in: 0...40, using: &random)) / 100)
            }
            guard case .array(let ids)? = harness.value("children") else { return }
            let embedded = ids.filter { if case .string(let id) = $0 { children.contains(id) } else { false } }
            let transitioning = harness.value("gateway.transitioning") == true
            #expect(embedded.count == (transitioning ? 2 : 1))
        }
        #expect(!harness.delivered.map(\.traceLine).joined().contains("key-"))
        #expect(harness.deliveredNames().contains("login.succeeded"))
    }
}

/// Its declarations say what it does (RehearseTesting's conformance kit).
@Test func gatewayConforms() {
    let samples: [any PluginEvent] = [
        LoginSubmit(username: "vijay"), LoginSucceeded(username: "vijay"), LoginFailed(username: "mallory"),
        Logout(), GatewayChanged(status: "loggedIn", child: "home"), GatewayNavigate(section: "settings"),
    ]
    #expect(PluginConformance.problems(of: Gateway.self, samples: samples) == [])
}
