import CDBus
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire

/// Reads a plugin's `RegisterPlugin(s id, s summary, a(sss) events, as subscriptions, a{sv}
/// configuration, as reads?)` (docs/remote-plugins.md), with its limits. A plugin that gives
/// `reads` (even none) takes them as the last argument of every `Deliver` and `Wake`; one that
/// does not is called as before reads existed.
package enum PluginRegistration {
    package static let signature = SimulatorMethod.registerPlugin.signature
    /// The signature with `reads`.
    package static let signatureWithReads = SimulatorMethod.registerPlugin.signatures[1]
    /// The most events, and the most subscriptions, one plugin declares.
    package static let maximumEvents = 256
    /// The longest id, event name or subscription, in bytes.
    package static let maximumNameBytes = 200

    /// The declaration in `message`, whose id must be `expectedID` when given (a started plugin's).
    package static func read(_ message: OpaquePointer, expectedID: String?) throws(MethodFailure) -> RemotePluginDeclaration {
        let found = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        guard found == signature || found == signatureWithReads else {
            throw MethodFailure(
                SimulatorError.invalidArgs, "RegisterPlugin takes (\(signature)) or (\(signatureWithReads)), not (\(found))")
        }
        var reader = MessageReader(message)
        let declaration = try read(from: &reader, expectedID: expectedID, withReads: found == signatureWithReads)
        do { try reader.finish() } catch { throw MethodFailure(.invalidRegistration, "\(error)") }
        return declaration
    }

    /// The declaration `reader` is at (the call's signature checked, with `reads` last when
    /// `withReads`), whose id must be `expectedID` when given.
    package static func read(
        from reader: inout MessageReader, expectedID: String?,
        withReads: Bool = false
    ) throws(MethodFailure) -> RemotePluginDeclaration {
        var declaration: RemotePluginDeclaration
        do {
            let id = try reader.string(maximumBytes: maximumNameBytes)
            let summary = try reader.string(maximumBytes: 1_000)
            let events = try reader.structs(limit: maximumEvents, what: "events") { members throws(MessageReader.Problem) in
                EventDescription(
                    name: try members.string(maximumBytes: maximumNameBytes), fields: try members.string(maximumBytes: 1_000),
                    summary: try members.string(maximumBytes: 1_000))
            }
            let subscriptions = try reader.strings(limit: maximumEvents, maximumBytes: maximumNameBytes)
            let configuration = try reader.fields()
            declaration = RemotePluginDeclaration(
                id: id, summary: summary, events: events, subscriptions: subscriptions,
                configuration: configuration)
        } catch {
            throw MethodFailure(.invalidRegistration, "\(error)")
        }
        if withReads {
            do {
                declaration.reads = try reader.strings(limit: ScenarioLimits.remoteReads, maximumBytes: maximumNameBytes)
            } catch {
                throw MethodFailure(
                    .invalidRegistration,
                    "its reads: \(error); a plugin reads at most \(ScenarioLimits.remoteReads) paths "
                        + "(ScenarioLimits.remoteReads) of at most \(maximumNameBytes) bytes")
            }
        }
        try check(declaration, expectedID: expectedID)
        return declaration
    }

    private static func check(_ declaration: RemotePluginDeclaration, expectedID: String?) throws(MethodFailure) {
        func refuse(_ message: String) -> MethodFailure { MethodFailure(.invalidRegistration, message) }
        guard EventName.isValid(declaration.id) else {
            throw refuse("'\(declaration.id)' is not a plugin id (letters, digits, dots, dashes)")
        }
        guard expectedID == nil || declaration.id == expectedID else {
            throw refuse(
                "it registered as '\(declaration.id)', but the scenario calls it '\(expectedID ?? "")' (REHEARSE_PLUGIN_ID)")
        }
        for event in declaration.events {
            guard EventName.isValid(event.name) else {
                throw refuse("'\(event.name)' is not an event name (letters, digits, dots, dashes)")
            }
            guard BuiltinEvent(name: event.name) == nil else {
                throw refuse("'\(event.name)' is a built-in event; a plugin defines its own")
            }
        }
        if let twice = Dictionary(grouping: declaration.events.map(\.name), by: { $0 }).first(where: { $0.value.count > 1 })?.key
        {
            throw refuse("it declares the event '\(twice)' twice")
        }
        if let twice = Dictionary(grouping: declaration.subscriptions, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw refuse("it subscribes to '\(twice)' twice")
        }
        if let problem = (declaration.reads ?? []).lazy.compactMap(RemotePluginDeclaration.problem(inRead:)).first {
            throw refuse(problem)
        }
        if let twice = Dictionary(grouping: declaration.reads ?? [], by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw refuse("it reads '\(twice)' twice")
        }
    }
}
