import RehearseSession

/// The named errors the service replies with.
enum SimulatorError {
    static let unknownEvent = "org.rehearse.Error.UnknownEvent"
    static let invalidField = "org.rehearse.Error.InvalidField"
    static let notPermitted = "org.rehearse.Error.NotPermitted"
    static let unknownPath = "org.rehearse.Error.UnknownPath"
    static let unknownPlugin = "org.rehearse.Error.UnknownPlugin"
    static let invalidScenario = "org.rehearse.Error.InvalidScenario"
    static let wrongMode = "org.rehearse.Error.WrongMode"
    /// A named limit was reached (pending events, peers, ...).
    static let limit = "org.rehearse.Error.Limit"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// A session that belongs to another client.
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    /// What went wrong is not the caller's doing (no machine id to give).
    static let failed = "org.freedesktop.DBus.Error.Failed"
    /// A peer asked for more match rules than it may hold.
    static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
}

/// A method that failed: the error name and what was wrong, sent back as an error reply.
struct MethodFailure: Error, Equatable {
    let name: String
    let message: String

    /// The longest error message sent: what names a client's input (a file's 20 errors) stops
    /// there with `…`, far below the 8 MiB a peer may fall behind by.
    static let maximumMessageLength = 64 << 10

    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message.utf8.count > Self.maximumMessageLength
            ? String(decoding: message.utf8.prefix(Self.maximumMessageLength), as: UTF8.self) + "…" : message
    }
}

extension MethodFailure {
    /// The D-Bus error for a session's refusal: its kind's `org.rehearse.Error.*` name.
    init(_ error: SessionError) {
        let name = switch error.kind {
        case .unknownEvent: SimulatorError.unknownEvent
        case .invalidField: SimulatorError.invalidField
        case .unknownPath: SimulatorError.unknownPath
        case .unknownPlugin: SimulatorError.unknownPlugin
        case .invalidScenario: SimulatorError.invalidScenario
        case .wrongMode: SimulatorError.wrongMode
        case .limit: SimulatorError.limit
        }
        self.init(name, error.message)
    }
}
