import CDBus
import RehearseCore
import RehearseDBusWire

/// Reads a plugin's answer to `Install`, `Deliver` or `Wake`: `(a(sa{sv}) effects, a{sv} state)`
/// with at most ``ScenarioLimits/remoteEffects`` effects, or an error reply.
package enum RemoteAnswerReader {
    package static let signature = "a(sa{sv})a{sv}"

    /// The answer `reply` carries to the call described by `what` (`Deliver(tap)`); throws what is
    /// wrong with it, or the error it is.
    package static func answer(in reply: OpaquePointer, to what: String) throws(RemotePluginError) -> RemoteAnswer {
        if dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR {
            let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? ""
            var reader = MessageReader(reply)
            let text = (try? reader.string()) ?? ""
            throw refusal(name: name, message: text, to: what)
        }
        do {
            return try read(reply)
        } catch {
            throw RemotePluginError("its answer to \(what) is wrong: \(error)")
        }
    }

    /// The fault of a plugin that answered `what` with the error `name`.
    package static func refusal(name: String, message: String, to what: String) -> RemotePluginError {
        RemotePluginError("it answered \(what) with \(name): \(String(message.prefix(1_000)))")
    }

    private static func read(_ reply: OpaquePointer) throws -> RemoteAnswer {
        let found = dbus_message_get_signature(reply).map { String(cString: $0) } ?? ""
        guard found == signature else {
            throw RemotePluginError("its signature is '\(found)', not '\(signature)'")
        }
        var reader = MessageReader(reply)
        let entries = try reader.structs(limit: ScenarioLimits.remoteEffects, what: "effects") {
            members throws(MessageReader.Problem) in
            (kind: try members.string(), arguments: try members.fields())
        }
        var effects: [RemoteEffect] = []
        for (index, entry) in entries.enumerated() {
            do {
                effects.append(try RemoteEffect(kind: entry.kind, arguments: entry.arguments))
            } catch {
                throw RemotePluginError("effect \(index + 1) (\(entry.kind)): \(error)")
            }
        }
        let state = try reader.fields()
        try reader.finish()
        return RemoteAnswer(effects: effects, state: state)
    }
}
