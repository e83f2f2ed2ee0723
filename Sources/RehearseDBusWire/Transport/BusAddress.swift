import Foundation

/// Which bus to join.
public enum BusAddress: Sendable, Equatable, CustomStringConvertible {
    case session
    case system
    /// A bus daemon at a D-Bus address (`unix:path=/tmp/bus.sock`).
    case address(String)

    /// The D-Bus address, as the environment gives it for the session and system buses.
    public var description: String {
        let environment = ProcessInfo.processInfo.environment
        switch self {
        case .session: return environment["DBUS_SESSION_BUS_ADDRESS"] ?? "the session bus"
        case .system: return environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "unix:path=/var/run/dbus/system_bus_socket"
        case .address(let text): return text
        }
    }
}
