/// Every error name the service and the plugin host reply with, and nothing else: the replies
/// are built from these cases, docs/dbus.md and docs/remote-plugins.md list them, and the Python
/// package's `rehearse.errors` names them (each checked against this list by the tests).
package enum SimulatorError: String, CaseIterable, Sendable {
    case unknownEvent = "org.rehearse.Error.UnknownEvent"
    case invalidField = "org.rehearse.Error.InvalidField"
    case notPermitted = "org.rehearse.Error.NotPermitted"
    case unknownPath = "org.rehearse.Error.UnknownPath"
    case unknownPlugin = "org.rehearse.Error.UnknownPlugin"
    case invalidScenario = "org.rehearse.Error.InvalidScenario"
    case wrongMode = "org.rehearse.Error.WrongMode"
    /// A named limit was reached (pending events, peers, ...).
    case limit = "org.rehearse.Error.Limit"
    /// An event's `target` given as a node query finds no node, or several without an index.
    case nodeNotFound = "org.rehearse.Error.NodeNotFound"
    /// `Settle` or `WaitUntil` past its timeout: what still moves, or the condition's two sides.
    case timeout = "org.rehearse.Error.Timeout"
    /// A plugin's id is taken in the session it registers with.
    case alreadyRegistered = "org.rehearse.Error.AlreadyRegistered"
    /// A plugin's `RegisterPlugin` arguments are not a registration (docs/remote-plugins.md).
    case invalidRegistration = "org.rehearse.Error.InvalidRegistration"
    case invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    case unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    case unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    case unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    case unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    case propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// A session that belongs to another client.
    case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    /// What went wrong is not the caller's doing (no machine id to give).
    case failed = "org.freedesktop.DBus.Error.Failed"
    /// A peer asked for more match rules than it may hold.
    case limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// A peer's match rule is not one.
    case matchRuleInvalid = "org.freedesktop.DBus.Error.MatchRuleInvalid"
    /// A peer removed a match rule it never added.
    case matchRuleNotFound = "org.freedesktop.DBus.Error.MatchRuleNotFound"
}
