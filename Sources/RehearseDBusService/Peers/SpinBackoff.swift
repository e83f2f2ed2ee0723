/// Whether the service's loop spins after a peer's message (``PeerServer``'s `peerSpin`): it does
/// while spinning pays, that is while a spin catches the peer's next message awake. A spin that
/// catches nothing only burns a CPU that others want (on a busy machine the peer is not scheduled
/// within the window, and the spinning service is then scheduled later itself), so after one the
/// next messages are served without spinning, twice as many after each further miss, up to
/// ``longestSkip``; a spin that catches a message spins again at once.
struct SpinBackoff {
    /// The most messages served without spinning between two tries (a tuning, not a limit on
    /// anything from outside).
    static let longestSkip = 64

    /// Messages still to serve without spinning.
    private var skipping = 0
    /// How many messages the next miss skips.
    private var nextSkip = 1

    /// Whether to spin after the message just served.
    mutating func shouldSpin() -> Bool {
        guard skipping == 0 else {
            skipping -= 1
            return false
        }
        return true
    }

    /// Notes what a spin did: whether it caught a message.
    mutating func spun(caught: Bool) {
        if caught {
            nextSkip = 1
        } else {
            skipping = nextSkip
            nextSkip = min(2 * nextSkip, Self.longestSkip)
        }
    }
}
