#if canImport(Glibc)
    import Glibc
#endif

/// Runs one session for a companion and nobody else (`rehearse view`, no D-Bus): due work on the
/// session's clock, the companion's clients served between, on the calling thread, which owns the
/// session for the loop's life. Nothing else reads the session's delivered events, so each round
/// lets them go.
public final class CompanionLoop {
    /// The longest the loop sleeps with nothing due: how soon it sees a stop request.
    public static let idleMilliseconds: Int32 = 50

    private let session: SimulatorSession
    private let companion: any SessionCompanion
    private let wake = WakeSignal()

    /// A loop for `session`, served to `companion`.
    public init(session: SimulatorSession, companion: any SessionCompanion) {
        self.session = session
        self.companion = companion
    }

    /// Runs until `shouldStop` says so (checked every round, at least every ``idleMilliseconds``).
    public func run(until shouldStop: () -> Bool) {
        session.startPacing()
        companion.start { [wake] in wake.notify() }
        while !shouldStop() {
            var descriptors = ([wake.descriptor] + companion.readDescriptors).map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(
                &descriptors, nfds_t(descriptors.count),
                session.waitMilliseconds(idle: companion.waitMilliseconds(idle: Self.idleMilliseconds)))
            wake.clear()
            session.runDueWork()
            companion.serve(session)
            _ = session.takeDeliveredEvents()
        }
    }
}
