import CDBus
import RehearseCore
import Testing

@testable import RehearseDBusInterface
@testable import RehearseDBusWire

/// Messages built in Swift (MessageWriter, OutgoingMessage) against the same messages built with
/// libdbus's own append iterators: the wire bytes must be the same.
struct OutgoingMessageTests {
    /// Every kind of field value, nested: lists in lists, mappings in lists and in mappings, empty
    /// containers (their padding is written even with no element), text beyond ASCII.
    static let fields: Fields = [
        "online": .bool(true),
        "count": .int(-42),
        "ratio": .double(0.125),
        "name": .string("Zoë ✓"),
        "empty": .array([]),
        "mixed": .array([.int(1), .string("two"), .array([.double(3)]), .dictionary(["four": .bool(false)])]),
        "frame": .dictionary(["x": .double(1), "size": .dictionary(["width": .double(320), "height": .double(216)])]),
        "none": .dictionary([:]),
    ]

    @Test func anEventSignalHasLibdbusOwnBytes() throws {
        var signal = OutgoingMessage.signal(
            path: SimulatorInterface.path, interface: SimulatorInterface.interface, member: "Event")
        signal.body = Self.eventBody(sequence: 7, name: "keyboard.willShow", fields: Self.fields)
        let ours = try #require(signal.make(serial: 9))
        defer { dbus_message_unref(ours) }

        #expect(try marshalled(ours) == referenceEvent(sequence: 7, name: "keyboard.willShow", fields: Self.fields, serial: 9))
        #expect(String(cString: dbus_message_get_signature(ours)) == "tdsa{sv}")
        var reader = MessageReader(ours)
        #expect(try reader.uint64() == 7)
        #expect(try reader.double() == 1.5)
        #expect(try reader.string() == "keyboard.willShow")
        #expect(try reader.fields() == Self.fields)
    }

    /// Signals made after a header written once: the first (which libdbus checks), the plain ones
    /// after it (which go out unchecked), and those with text beyond ASCII (checked again), all
    /// with libdbus's own bytes; and a libdbus message made of each reads back.
    @Test func signalsAfterAHeaderWrittenOnceHaveLibdbusOwnBytes() throws {
        var header = MessageHeader(
            path: SimulatorInterface.path, interface: SimulatorInterface.interface, member: "Event", signature: "tdsa{sv}")
        let plain: Fields = [
            "frame": .dictionary(["x": .double(0), "y": .double(216.5)]), "curve": .string("keyboard"),
            "touches": .array([.int(1), .bool(true), .array([])]),
        ]
        let signals: [(name: String, fields: Fields)] = [
            ("tick", ["timestamp": .double(0.5), "targetTimestamp": .double(0.5 + 1.0 / 60)]), ("keyboard.willShow", plain),
            ("text", Self.fields), ("focus", [:]), ("login.submit", ["username": .string("zoë")]), ("tap", plain),
        ]
        for (index, signal) in signals.enumerated() {
            let sequence = UInt64(index + 1)
            let serial = UInt32.max - UInt32(index)
            let encoded = header.encode(
                Self.eventBody(sequence: sequence, name: signal.name, fields: signal.fields), serial: serial)
            let ours = try #require(encoded)
            #expect(
                try ours.bytes == referenceEvent(sequence: sequence, name: signal.name, fields: signal.fields, serial: serial),
                "\(signal.name)")
            let message = try #require(ours.message)
            var reader = MessageReader(message)
            #expect(try reader.uint64() == sequence)
            _ = try reader.double()
            #expect(try reader.string() == signal.name)
            #expect(try reader.fields() == signal.fields)
            #expect(dbus_message_get_serial(message) == serial)
        }
    }

    /// Plain bytes (``MessageWriter/isPlain``) are the ones sent without libdbus's check: ASCII
    /// text nested at most 32 containers deep, and nothing written from outside as a path or a
    /// signature.
    @Test func onlyASCIITextNestedShallowIsPlain() {
        func writer(_ fields: Fields) -> MessageWriter {
            var writer = MessageWriter()
            writer.append(fields)
            return writer
        }
        func nested(_ levels: Int) -> Fields {
            var value = FieldValue.int(1)
            for _ in 0..<levels { value = .dictionary(["inner": value]) }
            return ["outer": value]
        }
        #expect(writer(["name": .string("username"), "list": .array([.dictionary(["x": .int(1)])])]).isPlain)
        #expect(!writer(["name": .string("Zoë")]).isPlain)
        #expect(!writer(["zoë": .bool(true)]).isPlain)
        #expect(!writer(["list": .array([.string("✓")])]).isPlain)
        #expect(writer(nested(9)).isPlain)  // 2 + 9 × 3 + 1 = 30 containers
        #expect(!writer(nested(11)).isPlain)  // 36
        var path = MessageWriter()
        path.append(objectPath: "/a")
        #expect(!path.isPlain)
        var variant = MessageWriter()
        variant.container(DBusType.variant, "t") { $0.append(UInt64(1)) }
        #expect(!variant.isPlain)
    }

    @Test func aReplyGoesToTheCallerWithTheCallsSerial() throws {
        let call = try #require(
            dbus_message_new_method_call(
                "org.rehearse.Simulator", SimulatorInterface.path,
                SimulatorInterface.interface, "Get"))
        defer { dbus_message_unref(call) }
        dbus_message_set_serial(call, 41)
        _ = dbus_message_set_sender(call, ":1.5")
        var reply = OutgoingMessage.reply(to: call)
        reply.body.appendVariant(.string("username"))
        let ours = try #require(reply.make(serial: 3))
        defer { dbus_message_unref(ours) }

        let reference = try #require(dbus_message_new_method_return(call))
        defer { dbus_message_unref(reference) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(reference, &iter)
        ReferenceWriter.appendVariant(.string("username"), to: &iter)
        dbus_message_set_serial(reference, 3)

        #expect(try marshalled(ours) == marshalled(reference))
        #expect(dbus_message_get_reply_serial(ours) == 41)
        #expect(String(cString: dbus_message_get_destination(ours)) == ":1.5")
    }

    /// Replies to a peer made after a header written once (the first checked by libdbus, the
    /// plain ones after it not, one with text beyond ASCII checked again) have the bytes libdbus
    /// writes for `dbus_message_new_method_return` of a call with no sender: each its own serial
    /// and the serial of the call it answers.
    @Test func repliesToAPeerAfterAHeaderWrittenOnceHaveLibdbusOwnBytes() throws {
        var header = MessageHeader(replyWithSignature: "v")
        for (index, value) in [FieldValue.string("username"), .double(0.5), .string("Zoë"), .int(7)].enumerated() {
            let call = try #require(
                dbus_message_new_method_call(nil, SimulatorInterface.path, SimulatorInterface.interface, "Get"))
            defer { dbus_message_unref(call) }
            let callSerial = UInt32(100 + index)
            dbus_message_set_serial(call, callSerial)
            var body = MessageWriter()
            body.appendVariant(value)
            let serial = UInt32.max - UInt32(index)
            let encoded = header.encode(body, serial: serial, replySerial: callSerial)
            let ours = try #require(encoded)

            let reference = try #require(dbus_message_new_method_return(call))
            defer { dbus_message_unref(reference) }
            var iter = DBusMessageIter()
            dbus_message_iter_init_append(reference, &iter)
            ReferenceWriter.appendVariant(value, to: &iter)
            dbus_message_set_serial(reference, serial)
            #expect(try ours.bytes == marshalled(reference), "\(value)")
            let message = try #require(ours.message)
            #expect(dbus_message_get_reply_serial(message) == callSerial)
            #expect(dbus_message_get_destination(message) == nil)
        }
    }

    @Test func aCallHasLibdbusOwnBytes() throws {
        var call = OutgoingMessage.methodCall(
            destination: "org.rehearse.Simulator", path: SimulatorInterface.path,
            interface: SimulatorInterface.interface, member: "Inject")
        call.body.append("network")
        call.body.append(["online": .bool(false)])
        let ours = try #require(call.make(serial: 12))
        defer { dbus_message_unref(ours) }

        let reference = try #require(
            dbus_message_new_method_call(
                "org.rehearse.Simulator", SimulatorInterface.path,
                SimulatorInterface.interface, "Inject"))
        defer { dbus_message_unref(reference) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(reference, &iter)
        ReferenceWriter.append("network", to: &iter)
        ReferenceWriter.append(["online": .bool(false)], to: &iter)
        dbus_message_set_serial(reference, 12)

        #expect(try marshalled(ours) == marshalled(reference))
    }

    /// On a peer-to-peer connection a call has no sender: the reply then has no destination.
    @Test func aReplyToAPeerHasNoDestination() throws {
        let call = try #require(dbus_message_new_method_call(nil, SimulatorInterface.path, SimulatorInterface.interface, "Reset"))
        defer { dbus_message_unref(call) }
        dbus_message_set_serial(call, 2)
        let ours = try #require(OutgoingMessage.reply(to: call).make(serial: 5))
        defer { dbus_message_unref(ours) }
        #expect(dbus_message_get_destination(ours) == nil)
        #expect(dbus_message_get_reply_serial(ours) == 2)
        #expect(String(cString: dbus_message_get_signature(ours)) == "")
    }

    /// `-0.0` (a content offset at rest past the top) goes out as 0, as traces write it.
    @Test func negativeZeroIsSentAsZero() throws {
        var signal = OutgoingMessage.signal(path: "/", interface: "org.example.Test", member: "Offset")
        signal.body.append(-0.0)
        signal.body.append(["contentOffset": .dictionary(["x": .double(0), "y": .double(-0.0)]), "velocity": .double(-0.5)])
        let message = try #require(signal.make(serial: 1))
        defer { dbus_message_unref(message) }
        var reader = MessageReader(message)
        #expect(try reader.double().sign == .plus)
        let fields = try reader.fields()
        guard case .dictionary(let offset)? = fields["contentOffset"], case .double(let y)? = offset["y"] else {
            Issue.record("no contentOffset.y in \(fields)")
            return
        }
        #expect(y.sign == .plus)
        #expect(fields["velocity"] == .double(-0.5))
    }

    /// D-Bus strings hold no NUL: text ends at the first one, as it did through libdbus's C strings.
    @Test func textEndsAtANul() throws {
        var signal = OutgoingMessage.signal(path: "/", interface: "org.example.Test", member: "Text")
        signal.body.append("before\u{0}after")
        let message = try #require(signal.make(serial: 1))
        defer { dbus_message_unref(message) }
        var reader = MessageReader(message)
        #expect(try reader.string() == "before")
    }

    @Test func serialsCountDownFromTheTop() {
        let serials = MessageSerials()
        #expect(serials.take() == UInt32.max)
        #expect(serials.take() == UInt32.max - 1)
    }

    /// An `Event` signal's body: sequence, time 1.5, name, fields.
    private static func eventBody(sequence: UInt64, name: String, fields: Fields) -> MessageWriter {
        var body = MessageWriter()
        body.append(sequence)
        body.append(1.5)
        body.append(name)
        body.append(fields)
        return body
    }

    /// The bytes of the same `Event` signal built with libdbus's append iterators.
    private func referenceEvent(sequence: UInt64, name: String, fields: Fields, serial: UInt32) throws -> [UInt8] {
        let reference = try #require(dbus_message_new_signal(SimulatorInterface.path, SimulatorInterface.interface, "Event"))
        defer { dbus_message_unref(reference) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(reference, &iter)
        var sequence = sequence
        var time = 1.5
        _ = dbus_message_iter_append_basic(&iter, DBusType.uint64, &sequence)
        _ = dbus_message_iter_append_basic(&iter, DBusType.double, &time)
        ReferenceWriter.append(name, to: &iter)
        ReferenceWriter.append(fields, to: &iter)
        dbus_message_set_serial(reference, serial)
        return try marshalled(reference)
    }

    private func marshalled(_ message: OpaquePointer) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        try #require(dbus_message_marshal(message, &buffer, &length) != 0)
        defer { dbus_free(buffer) }
        return try #require(buffer).withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }
}

/// The same values through libdbus's append iterators: the independent encoder the tests compare with.
private enum ReferenceWriter {
    static func append(_ text: String, to iter: inout DBusMessageIter) {
        text.withCString { pointer in
            var value: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iter, DBusType.string, &value)
        }
    }

    static func append(_ fields: Fields, to iter: inout DBusMessageIter) {
        container(DBusType.array, "{sv}", in: &iter) { array in
            for key in fields.keys.sorted() {
                container(DBusType.dictEntry, nil, in: &array) { entry in
                    append(key, to: &entry)
                    appendVariant(fields[key]!, to: &entry)
                }
            }
        }
    }

    static func appendVariant(_ value: FieldValue, to iter: inout DBusMessageIter) {
        switch value {
        case .bool(let flag):
            container(DBusType.variant, "b", in: &iter) {
                var bit: dbus_bool_t = flag ? 1 : 0
                _ = dbus_message_iter_append_basic(&$0, DBusType.boolean, &bit)
            }
        case .int(let number):
            container(DBusType.variant, "x", in: &iter) {
                var copy = number
                _ = dbus_message_iter_append_basic(&$0, DBusType.int64, &copy)
            }
        case .double(let number):
            container(DBusType.variant, "d", in: &iter) {
                var copy = number
                _ = dbus_message_iter_append_basic(&$0, DBusType.double, &copy)
            }
        case .string(let text):
            container(DBusType.variant, "s", in: &iter) { append(text, to: &$0) }
        case .array(let items):
            container(DBusType.variant, "av", in: &iter) { variant in
                container(DBusType.array, "v", in: &variant) { array in items.forEach { appendVariant($0, to: &array) } }
            }
        case .dictionary(let fields):
            container(DBusType.variant, "a{sv}", in: &iter) { append(fields, to: &$0) }
        }
    }

    static func container(
        _ type: Int32, _ signature: String?, in iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Void
    ) {
        var sub = DBusMessageIter()
        if let signature {
            _ = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            _ = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        body(&sub)
        _ = dbus_message_iter_close_container(&iter, &sub)
    }
}
