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
    /// A peer asked for more match rules than it may hold.
    static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
}

/// A method that failed: the error name and what was wrong, sent back as an error reply.
struct MethodFailure: Error, Equatable {
    let name: String
    let message: String

    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }
}
