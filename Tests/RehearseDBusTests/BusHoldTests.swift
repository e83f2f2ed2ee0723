import CDBus
import Testing

@testable import RehearseDBusService
@testable import RehearseDBusWire

/// What the service holds for the bus daemon to write in one go (`BusHold`): broadcast signals
/// only, in order, at most `mostSignalsHeld` of them and for at most `longestHold`.
struct BusHoldTests {
    /// A built signal whose bytes say which it is.
    private func signal(_ number: UInt8) -> BatchedWrite.Item {
        .encoded(EncodedMessage(plain: [number], path: "/p", interface: "i.f", member: "Event"))
    }

    private func numbers(_ items: [BatchedWrite.Item]) -> [UInt8] {
        items.compactMap { item in
            if case .encoded(let message) = item { message.bytes.first } else { nil }
        }
    }

    @Test func signalsHeldAreReleasedInOrderOnce() {
        var hold = BusHold()
        let now = ContinuousClock.now
        #expect(hold.mayHold([signal(1), signal(2)]))
        hold.hold([signal(1), signal(2)], at: now)
        hold.hold([signal(3)], at: now)
        #expect(numbers(hold.release()) == [1, 2, 3])
        #expect(hold.isEmpty)
        #expect(hold.release().isEmpty)
    }

    /// A reply, or a signal for one client (both libdbus messages), is never held: it goes at once,
    /// after what is held.
    @Test func aLibdbusMessageIsNotHeld() throws {
        let made = try #require(dbus_message_new_signal("/p", "i.f", "Event"))
        defer { dbus_message_unref(made) }
        let hold = BusHold()
        #expect(!hold.mayHold([signal(1), .made(made)]))
    }

    @Test func noMoreThanTheMostAreHeld() {
        var hold = BusHold()
        let now = ContinuousClock.now
        let most = (0..<BusHold.mostSignalsHeld).map { signal(UInt8($0 % 256)) }
        #expect(hold.mayHold(most))
        hold.hold(Array(most.dropLast()), at: now)
        #expect(hold.mayHold([signal(0)]))
        #expect(!hold.mayHold([signal(0), signal(1)]))
    }

    /// Once the first held has waited `longestHold`, what is held is due (the loop writes it rather
    /// than spin); the wait counts from the first held, not the last.
    @Test func whatIsHeldIsDueAfterTheLongestHold() {
        var hold = BusHold()
        let start = ContinuousClock.now
        #expect(!hold.isDue(at: start + .seconds(1)))  // nothing held
        hold.hold([signal(1)], at: start)
        hold.hold([signal(2)], at: start + BusHold.longestHold / 2)
        #expect(!hold.isDue(at: start + BusHold.longestHold / 2))
        #expect(hold.isDue(at: start + BusHold.longestHold))
        _ = hold.release()
        #expect(!hold.isDue(at: start + .seconds(1)))
    }
}
