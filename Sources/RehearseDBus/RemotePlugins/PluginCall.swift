import RehearseCore

/// One call of `org.rehearse.Plugin1` to a plugin, as both ways to a plugin (peer to peer, and
/// on the bus) make it.
enum PluginCall {
    case install(configuration: Fields)
    case deliver(DeliveredEvent)
    case wake(tag: String, time: VirtualTime, details: Fields)

    static let path = "/org/rehearse/Plugin"
    static let interface = "org.rehearse.Plugin1"

    /// The method's name.
    var member: String {
        switch self {
        case .install: "Install"
        case .deliver: "Deliver"
        case .wake: "Wake"
        }
    }

    /// The call as faults name it: `Deliver(tap)`, `Wake(dimmed)`.
    var description: String {
        switch self {
        case .install: "Install"
        case .deliver(let delivered): "Deliver(\(delivered.event.name))"
        case .wake(let tag, _, _): "Wake(\(tag))"
        }
    }

    /// The method call, to `destination` (nil on a peer-to-peer connection).
    func message(to destination: String?) -> OutgoingMessage {
        var message = OutgoingMessage(kind: .methodCall, path: Self.path, interface: Self.interface, member: member,
                                      destination: destination)
        switch self {
        case .install(let configuration):
            message.body.append(configuration)
        case .deliver(let delivered):
            message.body.append(delivered.sequence)
            message.body.append(delivered.time.seconds)
            message.body.append(delivered.event.name)
            message.body.append(delivered.event.fields)
        case .wake(let tag, let time, let details):
            message.body.append(tag)
            message.body.append(time.seconds)
            message.body.append(details)
        }
        return message
    }
}

/// A way to a plugin that makes each call of the protocol alike: ``answer(_:)`` sends it and waits.
protocol PluginCallChannel: RemotePluginChannel {
    /// Makes `call` and returns the plugin's answer; throws the fault.
    func answer(_ call: PluginCall) throws -> RemoteAnswer
}

extension PluginCallChannel {
    func install(configuration: Fields) throws -> RemoteAnswer {
        try answer(.install(configuration: configuration))
    }

    func deliver(_ delivered: DeliveredEvent) throws -> RemoteAnswer {
        try answer(.deliver(delivered))
    }

    func wake(tag: String, at time: VirtualTime, details: Fields) throws -> RemoteAnswer {
        try answer(.wake(tag: tag, time: time, details: details))
    }
}
