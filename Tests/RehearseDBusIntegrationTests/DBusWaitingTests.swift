import Foundation
import IntegrationTestSupport
import Testing

/// `Settle` and `WaitUntil` on `rehearse serve`, on a private bus, called by gdbus: the scenario
/// steps' waits for a client.
@Suite(.serialized) struct DBusWaitingTests {
    @Test func settleRunsUntilTheKeyboardAndTheFormHaveArrived() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        #expect(try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"]).output == "(uint64 1,)\n")
        // The keyboard's curve takes 0.5 s: the first frame with nothing moving.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Settle", ["10"]).output == "(0.5,)\n")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["title.presentation.frame.y"]).output == "(<70.0>,)\n")
        // Already still: the clock stays.
        #expect(try bus.gdbus("org.rehearse.Simulator1.Settle", ["10"]).output == "(0.5,)\n")
    }

    @Test func aSettleOrAWaitPastItsTimeoutIsATimeoutErrorAndTheServiceGoesOn() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"])
        let settle = try bus.gdbus("org.rehearse.Simulator1.Settle", ["0.1"])
        #expect(settle.status != 0)
        #expect(settle.errorOutput.contains("org.rehearse.Error.Timeout"), "\(settle.errorOutput)")
        #expect(settle.errorOutput.contains("the keyboard is moving until 0.5 s"), "\(settle.errorOutput)")
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.10000000000000001>,)\n")
        let wait = try bus.gdbus("org.rehearse.Simulator1.WaitUntil", ["title.frame.y > 100", "0.5"])
        #expect(wait.errorOutput.contains("org.rehearse.Error.Timeout"), "\(wait.errorOutput)")
        #expect(wait.errorOutput.contains("expected > 100, found title.frame.y = 70.0"), "\(wait.errorOutput)")
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.WaitUntil", ["keyboard.visible == true", "0"]).output
                == "(0.59999999999999998,)\n")
        for (method, arguments, error) in [
            ("Settle", ["1e308"], "InvalidField"), ("Settle", ["--", "-1"], "InvalidField"),
            ("WaitUntil", ["title.frame.y = 1", "1"], "InvalidField"),
            ("WaitUntil", ["title.frame.why == 1", "1"], "UnknownPath"),
        ] {
            let refused = try bus.gdbus("org.rehearse.Simulator1.\(method)", arguments)
            #expect(refused.errorOutput.contains("org.rehearse.Error.\(error)"), "\(method) \(arguments): \(refused.errorOutput)")
        }
        #expect(try bus.gdbus("org.rehearse.Simulator1.Get", ["time"]).output == "(<0.59999999999999998>,)\n")
    }

    @Test func waitUntilStopsWhereTheConditionHolds() throws {
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        _ = try bus.gdbus("org.rehearse.Simulator1.Inject", ["tap", "{'target': <'username'>}"])
        // The form lifts over 0.3 s: done at the animation's end.
        #expect(
            try bus.gdbus("org.rehearse.Simulator1.WaitUntil", ["title.presentation.frame.y <= 70", "2"]).output
                == "(0.29999999999999999,)\n")
    }
}
