import CDBus
import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import RehearseSession
import Testing

@testable import RehearseDBusInterface
@testable @_spi(Fuzzing) import RehearseDBusService
@testable import RehearseDBusWire

/// The object the service routes method calls to, fed decoded messages with no connection: which
/// calls it answers, with what, and which it leaves to the service.
struct SimulatorObjectTests {
    /// The fuzz target's set-up: the whole login flow (login animator and gateway).
    private func object(readOnly: Bool = false) throws -> SimulatorObject {
        let file = URL(filePath: #filePath).appending(path: "../../../Scenarios/login-flow/login-flow.yaml").standardized
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: file), file: file.path)
        let session = try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
        let recordings = FileManager.default.temporaryDirectory.appending(path: "rehearse-recordings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        return SimulatorObject(
            path: SimulatorInterface.path, session: session, readOnly: readOnly,
            recordings: RecordingFolder(url: recordings))
    }

    /// `bytes` decoded by libdbus; the caller releases the message.
    private func decode(_ bytes: [UInt8]) throws -> OpaquePointer {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = bytes.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
            dbus_message_demarshal($0.baseAddress, Int32($0.count), &error)
        }
        return try #require(message)
    }

    private func call(
        _ member: String, interface: String? = SimulatorInterface.interface,
        _ arguments: (inout MessageWriter) -> Void = { _ in }
    ) throws -> OpaquePointer {
        var call = OutgoingMessage.methodCall(
            destination: SimulatorInterface.defaultName, path: SimulatorInterface.path,
            interface: interface ?? "", member: member)
        call.interface = interface
        arguments(&call.body)
        return try #require(call.make(serial: 1))
    }

    private func errorName(_ answer: SimulatorObject.Answer?) -> SimulatorError? {
        guard case .failure(let failure)? = answer else { return nil }
        return failure.error
    }

    /// Every seed the fuzz target starts from is a call the object answers with a reply, not an
    /// error: the fuzzer's mutations start inside the session, not at the argument checks.
    @Test func theFuzzSeedsReachTheSession() throws {
        let object = try object()
        let host = RecordingSessionControl()
        object.host = host
        let seeds = MessageFuzzing.seeds()
        for seed in seeds.dropLast() {
            let message = try decode(seed)
            defer { dbus_message_unref(message) }
            let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
            if member == "Introspect" {
                #expect(object.answer(message) { true } == nil, "introspection is the service's")
                continue
            }
            let answer = object.answer(message) { true }
            guard case .reply? = answer else {
                Issue.record("\(member) was answered \(String(describing: answer))")
                continue
            }
        }
        #expect(host.created.map { $0.scenario.plugins.map(\.id) } == [["login-animator"]])
        #expect(host.created.first?.mode == .manual)
        #expect(host.closed == [SimulatorInterface.path])
        // The last seed is all the others in one stream, as a connection delivers them.
        let setup = object.session.setup
        let fuzzing = try MessageFuzzing(setup: setup, registry: shippedPlugins)
        let decoded = try seeds.last!.withUnsafeBytes { try fuzzing.handle($0) }
        #expect(decoded == seeds.count - 1)
    }

    /// `CreateSession`'s set-up keys, as the issue fixes them: scenario, or device and plugins; mode.
    @Test func aSessionSetUpNamesWhatIsWrongWithIt() throws {
        func failure(_ fields: Fields) -> SimulatorError? {
            do {
                _ = try SessionSetup(fields, registry: shippedPlugins)
                return nil
            } catch {
                return error.error
            }
        }
        #expect(failure(["plugins": .array([.string("gateway")]), "colour": .string("red")]) == SimulatorError.invalidArgs)
        #expect(
            failure(["scenario": .string("name: x\nsteps: []\n"), "device": .string("iphone-5")]) == SimulatorError.invalidArgs)
        #expect(failure(["mode": .string("slow")]) == SimulatorError.invalidArgs)
        #expect(failure(["plugins": .string("panner")]) == SimulatorError.invalidArgs)
        #expect(failure(["plugins": .array([.string("pannr")])]) == SimulatorError.invalidScenario)
        #expect(failure(["scenario": .string("name: x\nsteps: [{tapp: 1}]\n")]) == SimulatorError.invalidScenario)
        let setup = try SessionSetup(
            ["device": .string("iphone-5"), "plugins": .array([.string("panner")]), "mode": .string("virtual")],
            registry: shippedPlugins)
        #expect(setup.scenario.plugins.map(\.id) == ["panner"])
        #expect(setup.mode == .virtual)
        #expect(try SessionSetup([:], registry: shippedPlugins).mode == nil, "the service's own mode")
    }

    /// `Record(name)` writes into the service's recordings folder only: a name is a plain file name.
    @Test func aRecordingNameNeverLeavesItsFolder() throws {
        let object = try object()
        let folder = try #require(object.recordings).url
        for name in ["../escape", "/tmp/x", "a/b", ".hidden", "", String(repeating: "n", count: 101)] {
            let record = try call("Record") { $0.append(name) }
            defer { dbus_message_unref(record) }
            #expect(errorName(object.answer(record) { true }) == SimulatorError.invalidArgs, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let record = try call("Record") { $0.append("first-try") }
        defer { dbus_message_unref(record) }
        guard case .reply? = object.answer(record, betweenSlices: { true }) else {
            Issue.record("a plain name was refused")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["first-try.yaml"])
        let unrecorded = SimulatorObject(path: SimulatorInterface.path, session: object.session, readOnly: false)
        #expect(errorName(unrecorded.answer(record) { true }) == SimulatorError.notPermitted, "no --record folder")
    }

    /// A session writes 16 recordings of fresh names, then is refused with `Limit` (it may still
    /// write over its own), and nobody passes the folder's byte limit, counted with every file
    /// there. (Once, a client wrote 52 MB in half a second with fresh names.)
    @Test func recordingsHaveAQuotaPerSessionAndTheFolderACap() throws {
        let object = try object()
        let folder = try #require(object.recordings).url
        func record(_ name: String) throws -> SimulatorError? {
            let message = try call("Record") { $0.append(name) }
            defer { dbus_message_unref(message) }
            return errorName(object.answer(message) { true })
        }
        for index in 0..<RecordingFolder.maximumRecordsPerSession { #expect(try record("take-\(index)") == nil) }
        #expect(try record("one-more") == SimulatorError.limit)
        #expect(try record("take-0") == nil, "its own name again")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).count == RecordingFolder.maximumRecordsPerSession)

        let other = RecordingFolder(url: folder)
        let filler = folder.appending(path: "filler.bin")
        #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        try handle.truncate(atOffset: UInt64(RecordingFolder.maximumFolderBytes - 10))
        try handle.close()
        #expect { try other.write(String(repeating: "x", count: 100), name: "too-much") } throws: {
            ($0 as? MethodFailure)?.error == SimulatorError.limit
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "too-much.yaml").path))
    }

    /// A name `Record` wrote is its session's: another session may not write over it, and no
    /// session may take the names the service writes at a session's end. (Once, any client
    /// could overwrite another's report, or `default.yaml`.)
    @Test func aRecordingsNameBelongsToTheSessionThatWroteIt() throws {
        let object = try object()
        let folder = try #require(object.recordings)
        let other = SimulatorObject(
            path: "/org/rehearse/Simulator/sessions/other", session: object.session, readOnly: false,
            recordings: folder, recordingName: "session-2")
        func record(_ name: String, on target: SimulatorObject) throws -> SimulatorError? {
            let message = try call("Record") { $0.append(name) }
            defer { dbus_message_unref(message) }
            return errorName(target.answer(message) { true })
        }
        #expect(try record("report", on: object) == nil)
        #expect(try record("report", on: other) == SimulatorError.notPermitted)
        #expect(try record("report", on: object) == nil, "its own, again")
        for reserved in ["default", "session-1", "session-42"] {
            #expect(try record(reserved, on: other) == SimulatorError.notPermitted)
        }
        #expect(try record("session-notes", on: other) == nil)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                "report.yaml", "session-notes.yaml",
            ])
    }

    /// At a session's end its recording is written under the session's name; when the folder is
    /// gone the failure is thrown (the service logs it) rather than dropped.
    @Test func aSessionsEndWritesItsRecordingOrSaysWhyNot() throws {
        let object = try object()
        let folder = try #require(object.recordings).url
        try object.finishRecording()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["default.yaml"])
        try FileManager.default.removeItem(at: folder)
        #expect(throws: MethodFailure.self) { try object.finishRecording() }
    }

    /// Issue 37: `Inject` of text that would make a field hold more than `ScenarioLimits.textLength`
    /// Unicode scalars is refused with `Limit`, and the field keeps its text.
    @Test func injectedTextPastTheTextLengthIsALimitError() throws {
        let object = try object()
        func inject(_ text: String) throws -> SimulatorObject.Answer? {
            let message = try call("Inject") {
                $0.append("text")
                $0.append(["target": "username", "text": .string(text)] as Fields)
            }
            defer { dbus_message_unref(message) }
            return object.answer(message) { true }
        }
        let filled = try inject(String(repeating: "a", count: ScenarioLimits.textLength))
        #expect(filled != nil && errorName(filled) == nil)
        #expect(errorName(try inject("b")) == SimulatorError.limit)
        #expect(object.session.simulation.scene["username"]?.text.unicodeScalars.count == ScenarioLimits.textLength)
    }

    /// The attack on issue 39's surfaces found a NaN refused without naming its field: a bad
    /// value names its place, however deep (dotted keys, `[index]` for a list's items), quoted as
    /// JSON so that a key's control characters never reach a log raw (the attack on this stop's
    /// change); a limit of the whole call names no field.
    @Test func aBadValueNamesItsField() throws {
        let object = try object()
        func refusal(_ fields: Fields) throws -> MethodFailure? {
            let message = try call("Inject") {
                $0.append("motion")
                $0.append(fields)
            }
            defer { dbus_message_unref(message) }
            let answer = object.answer(message) { true }
            guard case .failure(let failure)? = answer else { return nil }
            return failure
        }
        let finite = "numbers must be finite, found nan"
        #expect(
            try refusal(["rotationRate": .dictionary(["y": .double(.nan)])])
                == MethodFailure(.invalidField, "field \"rotationRate.y\": \(finite)"))
        #expect(
            try refusal(["a": .array([.int(1), .dictionary(["q": .double(.nan)])])])
                == MethodFailure(.invalidField, "field \"a[1].q\": \(finite)"))
        #expect(
            try refusal(["a": .dictionary(["\u{1B}]0;x\u{07}": .double(.nan)])])
                == MethodFailure(.invalidField, "field \"a.\\u001b]0;x\\u0007\": \(finite)"))
        let long = String(repeating: "k", count: 300)
        #expect(
            try refusal(["rotationRate": .dictionary([long: .double(.nan)])])
                == MethodFailure(.invalidField, "field \"rotationRate.…\": \(finite)"))
        let many = Fields(uniqueKeysWithValues: (0...MessageReader.maximumFields).map { ("k\($0)", FieldValue.int(1)) })
        #expect(
            try refusal(["rotationRate": .dictionary(many)])
                == MethodFailure(.invalidField, "more than \(MessageReader.maximumFields) fields"))
        #expect(object.session.simulation.bus.lastSequence == 0, "nothing refused reached the bus")
    }

    @Test func callsAreCheckedBeforeTheSessionSeesThem() throws {
        let object = try object()
        let wrongSignature = try call("Inject") { $0.append("tap") }
        defer { dbus_message_unref(wrongSignature) }
        #expect(errorName(object.answer(wrongSignature) { true }) == SimulatorError.invalidArgs)

        let unknownMember = try call("Explode")
        defer { dbus_message_unref(unknownMember) }
        #expect(object.answer(unknownMember) { true } == nil)

        let otherInterface = try call("Inject", interface: "org.example.Other") {
            $0.append("tap")
            $0.append([:] as Fields)
        }
        defer { dbus_message_unref(otherInterface) }
        #expect(object.answer(otherInterface) { true } == nil)

        let setProperty = try call("Set", interface: "org.freedesktop.DBus.Properties") {
            $0.append(SimulatorInterface.interface)
            $0.append("Mode")
            $0.appendVariant(.string("virtual"))
        }
        defer { dbus_message_unref(setProperty) }
        #expect(errorName(object.answer(setProperty) { true }) == SimulatorError.propertyReadOnly)
        #expect(object.session.simulation.bus.lastSequence == 0, "nothing refused reached the bus")
    }

    /// The D-Bus specification lets `Properties.Get` and `GetAll` name no interface (an empty
    /// name); another interface's name is `UnknownInterface`. (Once, the empty name was refused.)
    @Test func propertiesMayBeAskedForWithNoInterfaceName() throws {
        let object = try object()
        for (interface, expected) in [
            ("", nil), (SimulatorInterface.interface, nil), ("org.example.Other", SimulatorError.unknownInterface),
        ] {
            let get = try call("Get", interface: "org.freedesktop.DBus.Properties") {
                $0.append(interface)
                $0.append("Mode")
            }
            let getAll = try call("GetAll", interface: "org.freedesktop.DBus.Properties") { $0.append(interface) }
            defer {
                dbus_message_unref(get)
                dbus_message_unref(getAll)
            }
            #expect(errorName(object.answer(get) { true }) == expected, "Get '\(interface)'")
            #expect(errorName(object.answer(getAll) { true }) == expected, "GetAll '\(interface)'")
        }
    }

    @Test func aReadOnlyObjectAnswersQuestionsAndRefusesChanges() throws {
        let object = try object(readOnly: true)
        let inject = try call("Inject") {
            $0.append("network")
            $0.append(["online": false] as Fields)
        }
        defer { dbus_message_unref(inject) }
        #expect(errorName(object.answer(inject) { true }) == SimulatorError.notPermitted)
        let get = try call("Get") { $0.append("username.frame.y") }
        defer { dbus_message_unref(get) }
        guard case .reply(let value)? = object.answer(get, betweenSlices: { true }) else {
            Issue.record("Get was refused")
            return
        }
        var expected = MessageWriter()
        expected.appendVariant(.double(241))  // login-flow.yaml expects username.frame.y 241
        #expect(value.bytes == expected.bytes)
        #expect(object.takeEventSignals(serials: MessageSerials()).isEmpty)
    }

    /// A broken invariant reaches D-Bus clients as an `Event` signal named `invariant.failed`.
    @Test func aBrokenInvariantIsAnEventSignal() throws {
        let object = try object()
        let load = try call("LoadScenario") {
            $0.append(
                """
                name: no keyboard wanted
                plugins: [login-animator]
                invariants: [{name: keyboard down, check: keyboard.visible == false}]
                steps: []
                """)
        }
        defer { dbus_message_unref(load) }
        #expect(errorName(object.answer(load) { true }) == nil)
        _ = object.takeEventSignals(serials: MessageSerials())
        let tap = try call("Inject") {
            $0.append("focus")
            $0.append(["target": "username"] as Fields)
        }
        defer { dbus_message_unref(tap) }
        #expect(errorName(object.answer(tap) { true }) == nil)
        var failures: [Fields] = []
        for signal in object.takeEventSignals(serials: MessageSerials()) {
            var reader = MessageReader(try #require(signal.message))
            _ = try reader.uint64()
            _ = try reader.double()
            if try reader.string() == "invariant.failed" { failures.append(try reader.fields()) }
        }
        #expect(
            failures == [
                [
                    "name": "keyboard down", "owner": "scenario", "actual": "keyboard.visible = true",
                    "expected": "== false",
                ]
            ])
    }

    @Test func signalsCarryTheObjectsPathAndOnlyWhatChanged() throws {
        let object = try object()
        let tap = try call("Inject") {
            $0.append("tap")
            $0.append(["x": .double(160), "y": .double(250)] as Fields)
        }
        defer { dbus_message_unref(tap) }
        guard case .reply? = object.answer(tap, betweenSlices: { true }) else {
            Issue.record("the tap was refused")
            return
        }
        let events = object.takeEventSignals(serials: MessageSerials())
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.path == SimulatorInterface.path && $0.member == "Event" })
        #expect(object.takeEventSignals(serials: MessageSerials()).isEmpty)
        let changed = try #require(object.takePropertiesChanged(), "the tap focused the field and raised the keyboard")
        #expect(changed.member == "PropertiesChanged")
        #expect(object.takePropertiesChanged() == nil)
    }
}

/// Takes what an object's `CreateSession`, `Close` and `RegisterPlugin` hand over.
private final class RecordingSessionControl: SessionControl {
    var created: [SessionSetup] = []
    var closed: [String] = []
    var registered: [RemotePluginDeclaration] = []

    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String? {
        created.append(try SessionSetup(setup, registry: shippedPlugins))
        return SessionTable.sessionsPath + "/\(created.count)"
    }

    func closeSession(at path: String) throws(MethodFailure) {
        closed.append(path)
    }

    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure) {
        registered.append(declaration)
    }
}
