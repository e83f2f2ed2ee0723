"""The error names Rehearse replies with, as `RehearseError.name` and `RegistrationRefused.name`
carry them: every one the service and the plugin host send (docs/dbus.md, "Errors"), and no other.

    try:
        session.inject("no.such.event")
    except rehearse.RehearseError as error:
        assert error.name == rehearse.errors.UNKNOWN_EVENT
"""

UNKNOWN_EVENT = "org.rehearse.Error.UnknownEvent"
INVALID_FIELD = "org.rehearse.Error.InvalidField"
NOT_PERMITTED = "org.rehearse.Error.NotPermitted"
UNKNOWN_PATH = "org.rehearse.Error.UnknownPath"
UNKNOWN_PLUGIN = "org.rehearse.Error.UnknownPlugin"
INVALID_SCENARIO = "org.rehearse.Error.InvalidScenario"
WRONG_MODE = "org.rehearse.Error.WrongMode"
LIMIT = "org.rehearse.Error.Limit"
NODE_NOT_FOUND = "org.rehearse.Error.NodeNotFound"
TIMEOUT = "org.rehearse.Error.Timeout"
ALREADY_REGISTERED = "org.rehearse.Error.AlreadyRegistered"
INVALID_REGISTRATION = "org.rehearse.Error.InvalidRegistration"
INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs"
UNKNOWN_PROPERTY = "org.freedesktop.DBus.Error.UnknownProperty"
UNKNOWN_INTERFACE = "org.freedesktop.DBus.Error.UnknownInterface"
UNKNOWN_OBJECT = "org.freedesktop.DBus.Error.UnknownObject"
UNKNOWN_METHOD = "org.freedesktop.DBus.Error.UnknownMethod"
PROPERTY_READ_ONLY = "org.freedesktop.DBus.Error.PropertyReadOnly"
ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied"
FAILED = "org.freedesktop.DBus.Error.Failed"
LIMITS_EXCEEDED = "org.freedesktop.DBus.Error.LimitsExceeded"
MATCH_RULE_INVALID = "org.freedesktop.DBus.Error.MatchRuleInvalid"
MATCH_RULE_NOT_FOUND = "org.freedesktop.DBus.Error.MatchRuleNotFound"
