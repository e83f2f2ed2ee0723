import CDBus
import RehearseCore

/// Appends values to a message, the one place fields become D-Bus: a field dictionary is `a{sv}`,
/// each value a variant (`b`, `x`, `d`, `s`, `av` for lists, `a{sv}` for mappings).
struct MessageWriter {
    private var iter = DBusMessageIter()

    init(_ message: OpaquePointer) {
        dbus_message_iter_init_append(message, &iter)
    }

    private init(iter: DBusMessageIter) {
        self.iter = iter
    }

    mutating func append(_ text: String) {
        text.withCString { pointer in
            var value: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iter, DBusType.string, &value)
        }
    }

    mutating func append(_ value: Bool) {
        var flag: dbus_bool_t = value ? 1 : 0
        _ = dbus_message_iter_append_basic(&iter, DBusType.boolean, &flag)
    }

    mutating func append(_ value: Double) {
        var number = value
        _ = dbus_message_iter_append_basic(&iter, DBusType.double, &number)
    }

    mutating func append(_ value: Int64) {
        var number = value
        _ = dbus_message_iter_append_basic(&iter, DBusType.int64, &number)
    }

    mutating func append(_ value: UInt64) {
        var number = value
        _ = dbus_message_iter_append_basic(&iter, DBusType.uint64, &number)
    }

    /// A container of type `type` with contents `signature`, filled by `body`.
    mutating func container(_ type: Int32, _ signature: String?, _ body: (inout MessageWriter) -> Void) {
        var sub = DBusMessageIter()
        if let signature {
            _ = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            _ = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        var writer = MessageWriter(iter: sub)
        body(&writer)
        _ = dbus_message_iter_close_container(&iter, &writer.iter)
    }

    /// `a{sv}`, keys sorted so that equal fields give equal messages.
    mutating func append(_ fields: Fields) {
        container(DBusType.array, "{sv}") { array in
            for key in fields.keys.sorted() {
                guard let value = fields[key] else { continue }
                array.container(DBusType.dictEntry, nil) { entry in
                    entry.append(key)
                    entry.appendVariant(value)
                }
            }
        }
    }

    mutating func appendVariant(_ value: FieldValue) {
        switch value {
        case .bool(let flag): container(DBusType.variant, "b") { $0.append(flag) }
        case .int(let number): container(DBusType.variant, "x") { $0.append(number) }
        case .double(let number): container(DBusType.variant, "d") { $0.append(number) }
        case .string(let text): container(DBusType.variant, "s") { $0.append(text) }
        case .array(let items):
            container(DBusType.variant, "av") { variant in
                variant.container(DBusType.array, "v") { array in
                    for item in items { array.appendVariant(item) }
                }
            }
        case .dictionary(let fields):
            container(DBusType.variant, "a{sv}") { $0.append(fields) }
        }
    }
}
