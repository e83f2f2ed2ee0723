import CDBus
import Foundation
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseScenario
import RehearseSession

/// For the D-Bus fuzz target in `Fuzz/` only (`@_spi(Fuzzing) import RehearseDBusService`): bytes as a
/// connection reads them, through what the service does with every message it reads, on a fresh
/// simulation each time so that an input reproduces alone.
@_spi(Fuzzing) public struct MessageFuzzing: Sendable {
    /// The slices one `Advance` may run (4,000 scheduled items in all) before the fuzzer stops it,
    /// as a stop request would: a long `Advance` is slow, not wrong.
    public static let slicesPerAdvance = 4_000 / SimulatorSession.advanceSlice

    private let setup: Scenario
    private let registry: PluginRegistry
    /// Where `Record` writes: a folder of the process's own under the temporary folder, emptied
    /// after every input so that no input finds what an earlier one wrote.
    private let recordingsURL: URL

    /// Each input is served by a simulation built from `setup` (its steps are not run), manual clock.
    public init(setup: Scenario, registry: PluginRegistry) throws {
        self.setup = setup
        self.registry = registry
        recordingsURL = FileManager.default.temporaryDirectory.appending(path: "rehearse-fuzz-\(getpid())")
        try FileManager.default.createDirectory(at: recordingsURL, withIntermediateDirectories: true)
    }

    /// Splits `bytes` into D-Bus messages as libdbus does when a connection reads them
    /// (`dbus_message_demarshal`), answers each method call as the service would (an `Introspect`
    /// call to any path with the introspection, the others with its object), builds the replies
    /// and the signals, and returns how many messages decoded. Decoding stops at the first bytes
    /// that are not a message. The object and its simulation are built when the first message
    /// decodes (building them is most of an input's cost): an input that decodes none builds none.
    @discardableResult
    public func handle(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        let host = DiscardingSessionControl(registry: registry)
        var served: SimulatorObject?
        defer {
            if served != nil { emptyRecordings() }
        }
        let serials = MessageSerials()
        var offset = 0
        var decoded = 0
        while let (message, length) = Self.message(in: UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            defer { dbus_message_unref(message) }
            offset += length
            decoded += 1
            let object = try served ?? makeObject(host: host)
            served = object
            var slices = 0
            let answer =
                Self.isIntrospection(message)
                ? Self.introspection(answering: message, object: object)
                : object.answer(
                    message,
                    betweenSlices: {
                        slices += 1
                        return slices < Self.slicesPerAdvance
                    })
            if let answer, let reply = answer.message(answering: message, serial: serials.take()) { dbus_message_unref(reply) }
            for signal in object.takeEventSignals(serials: serials) { _ = signal.message }  // libdbus checks each
            if let changed = object.takePropertiesChanged(), let made = changed.make(serial: serials.take()) {
                dbus_message_unref(made)
            }
        }
        withExtendedLifetime(host) {}
        return decoded
    }

    /// A fresh object on a fresh simulation of the set-up, recorded into an empty folder, with
    /// `host` for `CreateSession` and `Close` (the object holds it weakly).
    private func makeObject(host: DiscardingSessionControl) throws -> SimulatorObject {
        let object = try SimulatorObject(
            path: SimulatorInterface.path,
            session: SimulatorSession(setup: setup, registry: registry, mode: .manual),
            readOnly: false, recordings: RecordingFolder(url: recordingsURL))
        object.host = host
        return object
    }

    /// Whether `message` is an `Introspect` call, which the service answers before it routes by path.
    private static func isIntrospection(_ message: OpaquePointer) -> Bool {
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        return dbus_message_get_member(message).map({ String(cString: $0) }) == "Introspect"
            && (interface == nil || interface == "org.freedesktop.DBus.Introspectable")
    }

    /// The service's answer to the `Introspect` call `message`, on whatever path it names, with
    /// `object` the only object (its events on its own path); nil for a path with nothing at or below it.
    private static func introspection(answering message: OpaquePointer, object: SimulatorObject) -> SimulatorObject.Answer? {
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? "/"
        let events = path == object.path ? object.session.simulation.eventVocabulary : nil
        guard let xml = Introspection.xml(for: path, objectPaths: [object.path], events: events) else { return nil }
        var reply = MessageWriter()
        reply.append(xml)
        return .reply(reply)
    }

    /// Removes what `Record` wrote during an input.
    private func emptyRecordings() {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: recordingsURL.path)) ?? []
        for file in files { try? FileManager.default.removeItem(at: recordingsURL.appending(path: file)) }
    }

    /// The message at the start of `bytes` and its length, or nil if they do not start with one.
    private static func message(in bytes: UnsafeRawBufferPointer) -> (OpaquePointer, Int)? {
        let characters = bytes.bindMemory(to: CChar.self)
        // The fixed header (16 bytes) says how long the message is.
        guard characters.count >= 16 else { return nil }
        let length = Int(dbus_message_demarshal_bytes_needed(characters.baseAddress, 16))
        guard length > 0, length <= characters.count else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let message = dbus_message_demarshal(characters.baseAddress, Int32(length), &error) else { return nil }
        return (message, length)
    }

    /// The fuzzer's seeds: every method of the object called with valid arguments, each as the
    /// bytes a client sends, and all of them one after the other.
    public static func seeds() -> [[UInt8]] {
        var calls: [OutgoingMessage] = SimulatorMethod.allCases.map { method in
            var call = Self.call(method.rawValue, interface: SimulatorInterface.interface)
            for argument in method.inputs { appendExample(argument, for: method, to: &call.body) }
            return call
        }
        var getAll = call("GetAll", interface: "org.freedesktop.DBus.Properties")
        getAll.body.append(SimulatorInterface.interface)
        calls += [getAll, call("Introspect", interface: "org.freedesktop.DBus.Introspectable")] + touchStream()
        let serials = MessageSerials()
        let each = calls.compactMap { call in call.make(serial: serials.take()).map(marshal) }
        return each + [each.flatMap { $0 }]
    }

    /// A finger's drag as `Inject` calls (down, two moves, up), so mutations reach the gesture
    /// recognisers and the scroll physics.
    private static func touchStream() -> [OutgoingMessage] {
        let strokes: [(String, Double)] = [
            ("touch.began", 300), ("touch.moved", 250), ("touch.moved", 200), ("touch.ended", 200),
        ]
        return strokes.map { name, y in
            var inject = call(SimulatorMethod.inject.rawValue, interface: SimulatorInterface.interface)
            inject.body.append(name)
            inject.body.append(["id": .int(0), "x": .double(160), "y": .double(y)] as Fields)
            return inject
        }
    }

    private static func call(_ member: String, interface: String) -> OutgoingMessage {
        .methodCall(
            destination: SimulatorInterface.defaultName, path: SimulatorInterface.path, interface: interface, member: member)
    }

    /// A valid value for `argument` of `method`, so the seed reaches the session.
    private static func appendExample(
        _ argument: SimulatorMethod.Argument, for method: SimulatorMethod, to body: inout MessageWriter
    ) {
        switch (argument.type, method) {
        case ("d", _): body.append(0.5)
        case ("s", .loadScenario): body.append(exampleScenario)
        case ("s", .get): body.append("keyboard.frame.y")
        case ("s", .configure): body.append("gateway")
        case ("s", .record): body.append("seed")
        case ("s", .waitUntil): body.append("time >= 0")
        case ("s", .gesture): body.append("long-press")
        case ("v", _): body.appendVariant(.string("username"))
        case ("s", _): body.append("tap")
        case ("a{ss}", _):
            body.container(DBusType.array, "{ss}") { array in
                array.container(DBusType.dictEntry, nil) { entry in
                    entry.append("target")
                    entry.append("username")
                }
            }
        case ("a(sss)", _):
            body.container(DBusType.array, "(sss)") { array in
                array.container(DBusType.struct, nil) { event in
                    event.append("probe.seen")
                    event.append("count")
                    event.append("a seed's event")
                }
            }
        case ("as", _): body.container(DBusType.array, "s") { $0.append("tap") }
        case (_, .configure): body.append(["transition": .string("fade")] as Fields)
        case (_, .registerPlugin): body.append(["step": .int(1)] as Fields)
        case (_, .gesture): body.append(["on": .string("username"), "duration": .double(0.2)] as Fields)
        case (_, .createSession):
            body.append(["plugins": .array([.string("login-animator")]), "mode": .string("manual")] as Fields)
        default: body.append(["x": .double(160), "y": .double(250)] as Fields)
        }
    }

    /// A small scenario for `LoadScenario`: a scene with a field, and the gateway over two children.
    private static let exampleScenario = """
        name: seed
        scene:
          nodes:
            - {id: login, kind: view, frame: [0, 0, 320, 568]}
            - {id: username, kind: textField, parent: login, frame: [10, 240, 300, 40]}
            - {id: home, kind: view, frame: [0, 0, 320, 568]}
        plugins: [gateway]
        steps: []
        """

    /// `message`'s bytes on the wire; releases the message.
    private static func marshal(_ message: OpaquePointer) -> [UInt8] {
        defer { dbus_message_unref(message) }
        var bytes: UnsafeMutablePointer<CChar>?
        var count: Int32 = 0
        guard dbus_message_marshal(message, &bytes, &count) != 0, let bytes else { return [] }
        defer { dbus_free(bytes) }
        return UnsafeBufferPointer(start: bytes, count: Int(count)).map { UInt8(bitPattern: $0) }
    }
}

/// Builds each session `CreateSession` asks for, then lets it go: the fuzzer checks the set-up's
/// reading and building, not the sessions' lives (which need a connection).
private final class DiscardingSessionControl: SessionControl {
    let registry: PluginRegistry

    init(registry: PluginRegistry) {
        self.registry = registry
    }

    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String? {
        _ = try SessionSetup(setup, registry: registry).makeSession(registry: registry, defaultMode: .manual)
        return SessionTable.sessionsPath + "/1"
    }

    func closeSession(at path: String) throws(MethodFailure) {}

    /// Read and checked, then let go: a plugin needs a client to call.
    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure) {}
}
