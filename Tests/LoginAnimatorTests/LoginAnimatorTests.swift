import LoginEvents
import RehearseCore
import RehearseTesting
import Testing

@testable import LoginAnimator

/// The paper-login scene on an iPhone 5 (320 × 568, keyboard 216 / 162). The label is 21 high
/// and the fields 30 (the layout's intrinsic sizes), so with the keyboard hidden (top 120,
/// space 100, 000_paper-login.md) the title is at 120, username 241, separator 279, password 288.
private func harness(_ configure: (inout LoginAnimator.Configuration) -> Void = { _ in }) throws -> PluginHarness<LoginAnimator> {
    var configuration = LoginAnimator.Configuration()
    configure(&configuration)
    return try PluginHarness(LoginAnimator.self, configuration: configuration) { try LoginAnimator.scene?.build($0) }
}

@Suite struct LoginAnimatorTests {
    /// The form clears the device's own keyboard with the original's metrics; a password field laid
    /// out under it breaks the invariant.
    @Test func aFormUnderTheKeyboardBreaksTheInvariant() throws {
        let harness = try harness()
        harness.send(.focus(NodeTarget(target: "username")))
        harness.advance(by: 1)
        #expect(harness.brokenInvariants.isEmpty)
        try harness.simulation.scene.update("password") { $0.frame.origin.y = 340 }
        harness.send(.network(NetworkChange(online: true)))
        #expect(harness.brokenInvariants == ["the form is never under the keyboard"])
    }

    @Test func theHiddenLayoutIsTheSeedsAndTheStatusBarIsHidden() throws {
        let harness = try harness()
        #expect(harness.value("title.frame") == Rect(x: 137.5, y: 120, width: 45, height: 21).fieldValue)
        #expect(harness.value("username.frame") == Rect(x: 20, y: 241, width: 280, height: 30).fieldValue)
        #expect(harness.value("separator.frame") == Rect(x: 20, y: 279, width: 280, height: 1).fieldValue)
        #expect(harness.value("password.frame") == Rect(x: 20, y: 288, width: 280, height: 30).fieldValue)
        #expect(harness.value("statusBar.hidden") == true)
        #expect(harness.value("login-animator.layout") == "hidden")
    }

    /// keyboardWillShow: swap to the shown set (top 70, space 40) inside a 0.3 s animation on
    /// UIView's default curve; halfway the title is at 120 - 50 × easeInEaseOut(0.5) = 95.
    @Test func theFormLiftsWithTheKeyboardAndComesBackDown() throws {
        let harness = try harness()
        harness.send(.focus(NodeTarget(target: "username")))
        #expect(harness.number("title.frame.y") == 70)
        #expect(harness.number("username.frame.y") == 131)
        harness.advance(by: 0.15)
        let halfway = 120 - 50 * TimingCurve.easeInEaseOut.progress(elapsed: 0.15, duration: 0.3)
        #expect(abs(harness.number("title.presentation.frame.y") - halfway) < 1e-9)
        #expect(abs(halfway - 95) < 1e-6)
        harness.advance(by: 0.15)
        #expect(harness.number("title.presentation.frame.y") == 70)
        harness.send(.resign(ResignRequest()))
        harness.advance(by: 0.3)
        #expect(harness.number("title.presentation.frame.y") == 120)
    }

    @Test func followingTheKeyboardUsesItsDurationAndCurve() throws {
        let harness = try harness { $0.followKeyboardAnimation = true }
        harness.send(.focus(NodeTarget(target: "username")))
        harness.advance(by: 0.1)
        #expect(abs(harness.number("title.presentation.frame.y") - (120 - 50 * KeyboardCurve.progress(at: 0.1))) < 1e-9)
    }

    @Test func aTapOutsideTheFieldsEndsEditing() throws {
        let harness = try harness()
        harness.send(.tap(Tap(target: "username")))
        harness.send(.tap(Tap(target: "password")))
        #expect(harness.value("firstResponder") == "password")
        harness.send(.tap(Tap(point: Point(x: 160, y: 40))))
        harness.receive("resign")
        #expect(harness.value("firstResponder") == nil)
    }

    /// Next on the username moves to the password; Go on the password ends editing and submits;
    /// both keys are disabled on an empty field (enablesReturnKeyAutomatically).
    @Test func returnKeysMoveOnAndSubmit() throws {
        let harness = try harness()
        harness.send(.focus(NodeTarget(target: "username")))
        harness.send(.returnKey(NodeTarget(target: "username")))
        #expect(harness.value("firstResponder") == "username")
        harness.send(.text(TextInput(target: "username", text: "vijay")))
        harness.send(.returnKey(NodeTarget(target: "username")))
        harness.receive("focus", ["target": "password"])
        harness.send(.returnKey(NodeTarget(target: "password")))
        harness.send(.text(TextInput(target: "password", text: "hunter2")))
        harness.send(.returnKey(NodeTarget(target: "password")))
        harness.receive("resign")
        let submit = harness.receive("login.submit", ["username": "vijay"])
        #expect(submit?.event.fields == ["username": "vijay"])
        #expect(!harness.delivered.map(\.traceLine).joined().contains("hunter2"))
    }

    /// Roles pointing the username at the secure field: what was typed into it leaves in
    /// `login.submit` as `<redacted>`, in the event every subscriber and every trace gets.
    /// (Once, the secret went out in clear: redaction followed the role, not the text.)
    @Test func aSecureFieldsTextIsRedactedWhateverRoleItHas() throws {
        let harness = try harness {
            $0.username = "password"
            $0.password = "username"
        }
        harness.send(.focus(NodeTarget(target: "password")))
        harness.send(.text(TextInput(target: "password", text: "hunter2")))
        harness.send(.returnKey(NodeTarget(target: "password")))
        harness.receive("focus", ["target": "username"])
        harness.send(.text(TextInput(target: "username", text: "vijay")))
        harness.send(.returnKey(NodeTarget(target: "username")))
        harness.receive("resign")
        harness.receive("login.submit", ["username": .string(Redaction.placeholder)])
        #expect(!harness.delivered.map(\.traceLine).joined().contains("hunter2"))
    }

    /// displacement keyboard: the password's bottom 20 above the keyboard. With 216: 568 - 216 - 20
    /// = 332 = top + 21 + 40 + 30 + 8 + 1 + 8 + 30, so top = 194; with a 300-point keyboard, 110.
    @Test func displacementFollowsTheKeyboardsHeight() throws {
        let harness = try harness { $0.displacement = .keyboard }
        harness.send(.focus(NodeTarget(target: "username")))
        #expect(harness.number("title.frame.y") == 194)
        #expect(harness.number("password.frame.y") + 30 == 332)
        harness.simulation.keyboard.show(height: 300)
        #expect(harness.number("title.frame.y") == 110)
    }

    /// Landscape (568 × 320, keyboard 162): the original's 70 / 40 puts the password's bottom at 208,
    /// under the keyboard (top at 158); adaptive fits it 20 above: top 0, bottom 138.
    @Test(arguments: [(LoginAnimator.Landscape.original, 208.0), (.adaptive, 138.0)])
    func landscape(option: LoginAnimator.Landscape, passwordBottom: Double) throws {
        let harness = try harness { $0.landscape = option }
        harness.send(.orientation(OrientationChange(value: .landscapeLeft)))
        harness.send(.focus(NodeTarget(target: "username")))
        #expect(harness.number("password.frame.y") + harness.number("password.frame.height") == passwordBottom)
        #expect(harness.number("keyboard.frame.y") == 158)
        #expect(harness.number("username.frame.width") == 528)
    }

    /// After Go the title slides over the fields, which fade, and shimmers until the login resolves:
    /// on failure the form comes back; on success it stays.
    @Test(arguments: [true, false])
    func submitAnimationShimmersUntilTheLoginResolves(succeeds: Bool) throws {
        let harness = try harness { $0.submitAnimation = true }
        harness.exhaustive = false
        harness.send(.text(TextInput(target: "username", text: "vijay")))
        harness.send(.text(TextInput(target: "password", text: "x")))
        harness.send(.returnKey(NodeTarget(target: "password")))
        #expect(harness.value("login-animator.phase") == "submitting")
        #expect(harness.number("title.frame.y") == 241)
        #expect(harness.number("username.alpha") == 0)
        harness.advance(by: 1.25)
        #expect(harness.value("login-animator.shimmering") == true)
        #expect(abs(harness.number("login-animator.shimmerPhase") - 0.25) < 1e-9)
        harness.send(.custom(name: succeeds ? "login.succeeded" : "login.failed", fields: ["username": "vijay"]))
        harness.advance(by: 0.3)
        #expect(harness.value("login-animator.shimmering") == false)
        #expect(harness.number("title.frame.y") == (succeeds ? 241 : 120))
        #expect(harness.number("password.presentation.alpha") == (succeeds ? 0 : 1))
        #expect(harness.value("login-animator.phase") == (succeeds ? "succeeded" : "editing"))
    }
}

/// Its declarations say what it does (RehearseTesting's conformance kit).
@Test func loginAnimatorConforms() {
    let samples: [any PluginEvent] = [
        LoginSubmit(username: "vijay"), LoginSucceeded(username: "vijay"),
        LoginFailed(username: "mallory", reason: "unknown user"), LoginFailed(username: "mallory"),
    ]
    #expect(PluginConformance.problems(of: LoginAnimator.self, samples: samples) == [])
}
