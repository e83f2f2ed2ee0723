import RehearseCore
import RehearseDBusWire

/// One call of `org.rehearse.Plugin1` to a plugin, as both ways to a plugin (peer to peer, and
/// on the bus) make it.
package enum PluginCall {
    case install(configuration: Fields)
    /// `reads`: the values of the paths the plugin reads, an argument more; nil for a plugin that
    /// registered without reads (docs/remote-plugins.md, "Reads").
    case deliver(DeliveredEvent, reads: Fields?)
    case wake(tag: String, time: VirtualTime, details: Fields, reads: Fields?)

    package static let path = "/org/rehearse/Plugin"
    package static let interface = "org.rehearse.Plugin1"

    /// The method's name.
    package var member: String {
        switch self {
        case .install: "Install"
        case .deliver: "Deliver"
        case .wake: "Wake"
        }
    }

    /// The call as faults name it: `Deliver(tap)`, `Wake(dimmed)`.
    package var description: String {
        switch self {
        case .install: "Install"
        case .deliver(let delivered, _): "Deliver(\(delivered.event.name))"
        case .wake(let tag, _, _, _): "Wake(\(tag))"
        }
    }

    /// The method call, to `destination` (nil on a peer-to-peer connection).
    package func message(to destination: String?) -> OutgoingMessage {
        var message = OutgoingMessage(
            kind: .methodCall, path: Self.path, interface: Self.interface, member: member,
            destination: destination)
        switch self {
        case .install(let configuration):
            message.body.append(configuration)
        case .deliver(let delivered, let reads):
            message.body.append(delivered.sequence)
            message.body.append(delivered.time.seconds)
            message.body.append(delivered.event.name)
            message.body.append(delivered.event.fields)
            if let reads { message.body.append(reads) }
        case .wake(let tag, let time, let details, let reads):
            message.body.append(tag)
            message.body.append(time.seconds)
            message.body.append(details)
            if let reads { message.body.append(reads) }
        }
        return message
    }
}
