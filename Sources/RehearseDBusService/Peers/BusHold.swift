import RehearseDBusWire

/// The bus's copies of the signals a round of the service's loop sends, held to go to the daemon
/// in one write when the loop next waits, and while it spins for a peer's next call, until that
/// spin catches nothing: each write wakes the daemon, which then takes a CPU from the peer or the
/// service, so a peer calling one call at a time on a two-core machine waited for the daemon on
/// every call (Benchmarks/README.md, "D-Bus: against a C libdbus echo service"). Only broadcast
/// signals are held, never a reply or a message to one client (those go at once, after what is
/// held), and no more than ``mostSignalsHeld`` of them nor longer than ``longestHold``, checked as
/// each call's answer goes out and as the loop waits: bus clients hear every signal, in order, at
/// most ``longestHold`` later, or once the call being answered then is (costly calls sent with a
/// cheap one, read in one round, do not hold its signals until the round ends).
struct BusHold {
    /// The most signals held (then they are written with the next).
    static let mostSignalsHeld = 64
    /// The longest the first signal held waits.
    static let longestHold = Duration.milliseconds(1)

    /// The signals held, in the order they were sent.
    private var items: [BatchedWrite.Item] = []
    /// When the first of them was held.
    private var since: ContinuousClock.Instant?

    var isEmpty: Bool { items.isEmpty }

    /// Whether `more`, to be sent on the bus now, may be held with what is held: all of them are
    /// broadcast signals, and there is room.
    func mayHold(_ more: [BatchedWrite.Item]) -> Bool {
        guard items.count + more.count <= Self.mostSignalsHeld else { return false }
        return more.allSatisfy { item in
            if case .encoded = item { true } else { false }
        }
    }

    /// Whether what is held has waited its longest, so it is written now.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        since.map { now - $0 >= Self.longestHold } ?? false
    }

    /// Holds `more` after what is held.
    mutating func hold(_ more: [BatchedWrite.Item], at now: ContinuousClock.Instant) {
        if items.isEmpty { since = now }
        items += more
    }

    /// What is held, to be written now; nothing is held after.
    mutating func release() -> [BatchedWrite.Item] {
        defer {
            items = []
            since = nil
        }
        return items
    }
}
