/// Why a session refused what it was asked, in no transport's terms: D-Bus replies with an
/// `org.rehearse.Error.*` name for each kind, the viewer shows the message.
public struct SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: Sendable, CaseIterable {
        /// No event of that name in the session's vocabulary.
        case unknownEvent
        /// A field, an argument or a setting that is not what it must be.
        case invalidField
        /// A path that names nothing.
        case unknownPath
        /// No registered plugin of that id.
        case unknownPlugin
        /// A scenario or set-up that does not load or build.
        case invalidScenario
        /// Not in the clock's mode (`Advance` on a realtime clock).
        case wrongMode
        /// A named limit reached.
        case limit
        /// A node query (an event's `target` given as a mapping) that finds no node, or several
        /// without an index.
        case nodeNotFound
        /// A settle or a wait for a condition that did not end within its timeout (the clock has
        /// moved to it).
        case timeout
    }

    /// What kind of refusal.
    public let kind: Kind
    /// What was wrong, in words.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
