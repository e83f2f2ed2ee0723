import RehearseCore

/// A way to a plugin that makes each call of the protocol alike: ``answer(_:)`` sends it and waits.
package protocol PluginCallChannel: RemotePluginChannel {
    /// Makes `call` and returns the plugin's answer; throws the fault.
    func answer(_ call: PluginCall) throws -> RemoteAnswer
}

extension PluginCallChannel {
    package func install(configuration: Fields) throws -> RemoteAnswer {
        try answer(.install(configuration: configuration))
    }

    package func deliver(_ delivered: DeliveredEvent, reads: Fields?) throws -> RemoteAnswer {
        try answer(.deliver(delivered, reads: reads))
    }

    package func wake(tag: String, at time: VirtualTime, details: Fields, reads: Fields?) throws -> RemoteAnswer {
        try answer(.wake(tag: tag, time: time, details: details, reads: reads))
    }
}
