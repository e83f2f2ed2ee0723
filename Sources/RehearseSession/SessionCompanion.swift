/// Something that serves the default session beside D-Bus, on the service's thread, so that it and
/// D-Bus clients see one simulation: the live viewer, the accessibility export. Everything but ``start(waking:)``'s `wake`
/// runs on that thread.
public protocol SessionCompanion: AnyObject {
    /// Called once before the loop starts, with what wakes the loop from any thread (the
    /// companion's clients have something for the session).
    func start(waking wake: @escaping @Sendable () -> Void)

    /// Called on every round of the loop, after the D-Bus messages read in it were answered and
    /// due work ran: take what the companion's clients asked for, and show them what changed.
    func serve(_ session: SimulatorSession)

    /// How long the loop may wait for messages, at most `idle` milliseconds (less while the
    /// companion has frames to show).
    func waitMilliseconds(idle: Int32) -> Int32

    /// Descriptors whose readability ends the loop's wait (the companion reads them in
    /// ``serve(_:)``): a connection of its own.
    var readDescriptors: [Int32] { get }
}

extension SessionCompanion {
    /// None: the companion wakes the loop through ``start(waking:)``'s `wake`.
    public var readDescriptors: [Int32] { [] }
}
