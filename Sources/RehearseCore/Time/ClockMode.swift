/// How a simulation's virtual clock relates to the wall clock.
public enum ClockMode: String, Sendable, CaseIterable, Codable {
    /// Time moves as fast as the CPU allows: scenario runs and tests.
    case virtual
    /// Time is paced to the wall clock (see ``RealtimePacer``).
    case realtime
    /// Time moves only when a client asks for it, step by step.
    case manual
}
