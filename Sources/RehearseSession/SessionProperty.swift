import RehearseCore

/// A session's properties, declared once: every transport shows these and no others (D-Bus's
/// introspection, `Get`, `GetAll` and `PropertiesChanged`, and docs/dbus.md's table, all come
/// from this list).
public enum SessionProperty: String, CaseIterable, Sendable {
    case time = "Time"
    case mode = "Mode"
    case keyboardVisible = "KeyboardVisible"
    case firstResponder = "FirstResponder"
    case orientation = "Orientation"
    case eventCount = "EventCount"

    /// The form of a property's value.
    public enum Form: Sendable {
        /// A number of seconds.
        case seconds
        /// A string.
        case text
        /// A boolean.
        case flag
        /// A whole number that is never negative.
        case count
    }

    /// Its value's form.
    public var form: Form {
        switch self {
        case .time: .seconds
        case .mode, .firstResponder, .orientation: .text
        case .keyboardVisible: .flag
        case .eventCount: .count
        }
    }

    /// Whether its changes are announced (D-Bus's `PropertiesChanged`): not for the two that
    /// change with nearly every event.
    public var isAnnounced: Bool {
        switch self {
        case .time, .eventCount: false
        case .mode, .keyboardVisible, .firstResponder, .orientation: true
        }
    }

    /// What it holds, as the documents say it.
    public var summary: String {
        switch self {
        case .time: "the virtual clock, in seconds"
        case .mode: "how time moves: realtime, manual or virtual"
        case .keyboardVisible: "whether the keyboard is up (or going up)"
        case .firstResponder: "the id of the node that has the focus, or an empty string"
        case .orientation: "the device's orientation (portrait, landscapeLeft, ...)"
        case .eventCount: "the sequence number of the last event delivered"
        }
    }

    /// Its value in `simulation` now.
    func value(in simulation: Simulation) -> FieldValue {
        switch self {
        case .time: .double(simulation.now.seconds)
        case .mode: .string(simulation.mode.rawValue)
        case .keyboardVisible: .bool(simulation.keyboard.isVisible)
        case .firstResponder: .string(simulation.scene.firstResponder ?? "")
        case .orientation: .string(simulation.scene.orientation.rawValue)
        case .eventCount: .int(Int64(simulation.bus.lastSequence))
        }
    }
}
