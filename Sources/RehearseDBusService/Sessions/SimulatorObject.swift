import CDBus
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearsePluginHost
import RehearseSession

/// One simulation served as a D-Bus object: `org.rehearse.Simulator1` and its properties at
/// ``path``. It turns a method call into an answer and the simulation's news into signals, with no
/// connection in sight: the service routes messages to it and sends what it gives back, and the
/// fuzz target (`Fuzz/`) drives it with decoded bytes alone.
final class SimulatorObject {
    /// What a method call gets back: a reply's arguments, or a named error; or nothing yet: the
    /// host answers the call itself, later (`CreateSession`, whose set-up is read off the
    /// service's thread).
    enum Answer {
        case reply(MessageWriter)
        case failure(MethodFailure)
        case later
    }

    let path: String
    let session: SimulatorSession
    /// Refuse every method that changes state.
    let readOnly: Bool
    /// Where `CreateSession` and `Close` go; without one they are refused.
    weak var host: SessionControl?
    /// Where recordings go (`rehearse serve --record DIR`); nil: the session is not recorded.
    let recordings: RecordingFolder?
    /// The names `Record` wrote, counted against ``RecordingFolder/maximumRecordsPerSession``.
    private var recordedNames: Set<String> = []
    /// The announced properties as last sent in `PropertiesChanged`.
    private var announced: [SessionProperty: FieldValue]
    /// The header of every `Event` signal of the object.
    private var eventHeader: MessageHeader

    /// The recording's file name when the session ends: `default`, or `session-N`.
    let recordingName: String

    init(
        path: String, session: SimulatorSession, readOnly: Bool, recordings: RecordingFolder? = nil,
        recordingName: String = "default"
    ) {
        self.path = path
        self.recordingName = recordingName
        self.session = session
        self.readOnly = readOnly
        self.recordings = recordings
        announced = session.properties
        eventHeader = MessageHeader(path: path, interface: SimulatorInterface.interface, member: "Event", signature: "tdsa{sv}")
        if recordings != nil { session.startRecording(as: "recorded session \(path)") }
    }

    /// Writes the recording as it stands, when the session is recorded (at its end), and gives
    /// back the names `Record` wrote; throws what kept the recording from being written.
    func finishRecording() throws(MethodFailure) {
        defer { recordings?.release(by: path) }
        let recording: String?
        do { recording = try session.recording() } catch { throw MethodFailure(error) }
        guard let recordings, let text = recording else { return }
        _ = try recordings.write(text, name: recordingName)
    }

    /// The answer to the method call `message` (already routed here by its path), or nil when it
    /// is for no interface or member of this object. `betweenSlices` runs between the slices of a
    /// long `Advance`; it returns false to stop there.
    func answer(_ message: OpaquePointer, betweenSlices: () -> Bool) -> Answer? {
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        var reader = MessageReader(message)
        do {
            switch interface {
            case "org.freedesktop.DBus.Properties"?:
                return try .reply(answerProperties(member, signature, &reader))
            case nil, SimulatorInterface.interface?:
                guard let method = SimulatorMethod(rawValue: member) else { return nil }
                guard method.signatures.contains(signature) else {
                    let signatures = method.signatures.map { "(\($0))" }.joined(separator: " or ")
                    throw MethodFailure(SimulatorError.invalidArgs, "\(member) takes \(signatures), not (\(signature))")
                }
                if readOnly, method.changesState {
                    throw MethodFailure(SimulatorError.notPermitted, "the service is read-only: \(member) changes state")
                }
                let reply = try call(method, message, &reader, betweenSlices: betweenSlices)
                try Self.readArgument { try reader.finish() }
                return reply.map(Answer.reply) ?? .later
            default:
                return nil
            }
        } catch let failure as MethodFailure {
            return .failure(failure)
        } catch let refusal as SessionError {
            return .failure(MethodFailure(refusal))
        } catch {
            return .failure(MethodFailure(SimulatorError.invalidField, "\(error)"))
        }
    }

    /// Whether a call of `member` on `interface` only reads the session: a method that changes no
    /// state (`Get`, `Snapshot`, `ListPlugins`, `IsVisible`) or the properties' `Get` and `GetAll`. The service
    /// answers these between the slices of another caller's long `Advance` on the default session.
    static func onlyReads(interface: String?, member: String) -> Bool {
        switch interface {
        case "org.freedesktop.DBus.Properties"?: member == "Get" || member == "GetAll"
        case nil, SimulatorInterface.interface?: SimulatorMethod(rawValue: member).map { !$0.changesState } ?? false
        default: false
        }
    }

    /// The answer to `Introspect` on this object (with the nodes of `objectPaths` below it), or nil
    /// when `message` is not that call.
    func answerIntrospection(_ message: OpaquePointer, objectPaths: [String]) -> Answer? {
        Introspection.reply(to: message, at: path, objectPaths: objectPaths, events: session.simulation.eventVocabulary).map(
            Answer.reply)
    }

    /// An `Event` signal for each event delivered since the last call, in order, numbered from
    /// `serials`.
    func takeEventSignals(serials: MessageSerials) -> [EncodedMessage] {
        session.takeDeliveredEvents().compactMap { delivered in
            var body = MessageWriter()
            body.append(delivered.sequence)
            body.append(delivered.time.seconds)
            body.append(delivered.event.name)
            body.append(delivered.event.fields)
            return eventHeader.encode(body, serial: serials.take())
        }
    }

    /// `PropertiesChanged` with the announced properties that changed since the last call, if any.
    func takePropertiesChanged() -> OutgoingMessage? {
        let current = session.properties
        let changed = current.filter { $0.key.isAnnounced && announced[$0.key] != $0.value }
        announced = current
        guard !changed.isEmpty else { return nil }
        var signal = OutgoingMessage.signal(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        signal.body.append(SimulatorInterface.interface)
        SessionProperty.append(changed, to: &signal.body)
        signal.body.container(DBusType.array, "s") { _ in }
        return signal
    }

    // MARK: Properties

    private func answerProperties(_ member: String, _ signature: String, _ reader: inout MessageReader) throws -> MessageWriter {
        var reply = MessageWriter()
        switch (member, signature) {
        case ("Get", "ss"):
            let interface = try Self.readArgument { try reader.string() }
            let name = try Self.readArgument { try reader.string() }
            try Self.requireOwnInterface(interface)
            guard let property = SessionProperty(rawValue: name), let value = session.properties[property] else {
                throw MethodFailure(SimulatorError.unknownProperty, "no property \(name)")
            }
            property.append(value, to: &reply)
        case ("GetAll", "s"):
            try Self.requireOwnInterface(Self.readArgument { try reader.string() })
            SessionProperty.append(session.properties, to: &reply)
        case ("Set", "ssv"):
            throw MethodFailure(SimulatorError.propertyReadOnly, "the simulator's properties are read-only")
        default:
            throw MethodFailure(SimulatorError.invalidArgs, "Properties.\(member) does not take (\(signature))")
        }
        return reply
    }

    /// The D-Bus specification lets `Get` and `GetAll` name no interface (an empty name): the
    /// object's one interface is meant.
    private static func requireOwnInterface(_ interface: String) throws(MethodFailure) {
        guard interface == SimulatorInterface.interface || interface.isEmpty else {
            throw MethodFailure(SimulatorError.unknownInterface, "no interface \(interface)")
        }
    }

    // MARK: Methods

    /// Reads an argument, turning a reading problem into the matching error reply.
    private static func readArgument<Value>(_ read: () throws -> Value) throws(MethodFailure) -> Value {
        do {
            return try read()
        } catch MessageReader.Problem.signature(let reason) {
            throw MethodFailure(SimulatorError.invalidArgs, reason)
        } catch let problem as MessageReader.Problem {
            throw MethodFailure(SimulatorError.invalidField, problem.description)
        } catch {
            throw MethodFailure(SimulatorError.invalidArgs, "\(error)")
        }
    }

    private func requireHost() throws(MethodFailure) -> SessionControl {
        guard let host else { throw MethodFailure(SimulatorError.notPermitted, "this object has no sessions") }
        return host
    }

    /// Reads `method`'s arguments, calls the session (or the host, for sessions) and returns the
    /// reply's arguments; nil when the host answers later.
    private func call(
        _ method: SimulatorMethod, _ call: OpaquePointer, _ reader: inout MessageReader,
        betweenSlices: () -> Bool
    ) throws -> MessageWriter? {
        var reply = MessageWriter()
        func string() throws(MethodFailure) -> String { try Self.readArgument { try reader.string() } }
        func fields() throws(MethodFailure) -> Fields { try Self.readArgument { try reader.fields() } }
        func double() throws(MethodFailure) -> Double { try Self.readArgument { try reader.double() } }
        switch method {
        case .inject:
            try reply.append(session.inject(string(), fields()))
        case .injectAt:
            let time = try SimulatorSession.injectionTime(double())
            try reply.append(session.inject(string(), fields(), at: time))
        case .injectStrings:
            let name = try string()
            try reply.append(session.injectStrings(name, Self.readArgument { try reader.stringPairs() }))
        case .advance:
            try reply.append(session.advance(by: double(), betweenSlices: betweenSlices))
        case .settle:
            try reply.append(session.settle(within: double(), betweenSlices: betweenSlices))
        case .waitUntil:
            let condition = try string()
            try reply.append(session.wait(until: condition, within: double(), betweenSlices: betweenSlices))
        case .gesture:
            let kind = try string()
            try reply.append(session.gesture(kind, fields(), betweenSlices: betweenSlices))
        case .isVisible:
            let (visible, why) = try session.visibility(of: Self.readArgument { try reader.variant() })
            reply.append(visible)
            reply.append(why)
        case .loadScenario:
            // Scenario text has the scenario file's limit, not an event string's.
            try session.loadScenario(Self.readArgument { try reader.string(maximumBytes: ScenarioLimits.fileBytes) })
        case .reset:
            try session.reset()
        case .get:
            try reply.appendVariant(session.value(at: string()))
        case .snapshot:
            reply.append(session.snapshot())
        case .listPlugins:
            reply.container(DBusType.array, "(ssb)") { array in
                for plugin in session.plugins() {
                    array.container(DBusType.struct, nil) { entry in
                        entry.append(plugin.id)
                        entry.append(plugin.summary)
                        entry.append(plugin.installed)
                    }
                }
            }
        case .configure:
            try session.configure(string(), fields())
        case .createSession:
            // A scenario in the set-up has the scenario file's limit, not an event string's.
            let setup = try Self.readArgument { try reader.fields(maximumStringBytes: ScenarioLimits.fileBytes) }
            guard let path = try requireHost().createSession(setup, for: call) else { return nil }
            reply.append(objectPath: path)
        case .close:
            try requireHost().closeSession(at: path)
        case .record:
            let name = try string()
            guard let recordings, let text = try session.recording() else {
                throw MethodFailure(SimulatorError.notPermitted, "the service records nothing: start it with --record DIR")
            }
            guard recordedNames.contains(name) || recordedNames.count < RecordingFolder.maximumRecordsPerSession else {
                throw MethodFailure(
                    SimulatorError.limit,
                    "this session wrote \(RecordingFolder.maximumRecordsPerSession) recordings (the limit): write over one of them"
                )
            }
            try reply.append(recordings.record(text, name: name, by: path))
            recordedNames.insert(name)
        case .registerPlugin:
            let withReads = dbus_message_has_signature(call, PluginRegistration.signatureWithReads) != 0
            let declaration = try PluginRegistration.read(from: &reader, expectedID: nil, withReads: withReads)
            try session.checkRegistration(of: declaration.id)
            // Checked now, as a command plugin's are when installed: a plugin is installed only
            // after this answer, where a failure would reach neither the plugin nor the session.
            do {
                try session.simulation.checkReads((declaration.reads ?? []).map(ValuePath.init), of: declaration.id)
            } catch {
                throw MethodFailure(SimulatorError.invalidRegistration, "\(error)")
            }
            try requireHost().registerPlugin(declaration)
        }
        return reply
    }
}

extension SimulatorObject.Answer {
    /// The libdbus message that answers `call`, numbered `serial`; the caller releases it.
    func message(answering call: OpaquePointer, serial: UInt32) -> OpaquePointer? {
        switch self {
        case .reply(let arguments):
            var reply = OutgoingMessage.reply(to: call)
            reply.body = arguments
            return reply.make(serial: serial)
        case .failure(let failure):
            return dbus_message_new_error(call, failure.name, failure.message)
        case .later:
            return nil
        }
    }
}
