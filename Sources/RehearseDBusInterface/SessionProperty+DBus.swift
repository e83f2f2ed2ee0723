import RehearseCore
import RehearseDBusWire
import RehearseSession

/// A session's properties on D-Bus: each one's type, its introspection and its value as `Get`,
/// `GetAll` and `PropertiesChanged` send it, all from ``SessionProperty``.
extension SessionProperty {
    /// Its D-Bus type.
    package var dbusType: String {
        switch form {
        case .seconds: "d"
        case .text: "s"
        case .flag: "b"
        case .count: "t"
        }
    }

    /// Its `<property>` element of the simulator interface's introspection.
    package var introspection: String {
        let element = #"    <property name="\#(rawValue)" type="\#(dbusType)" access="read""#
        guard !isAnnounced else { return element + "/>\n" }
        return element + ">\n" + #"      <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>"#
            + "\n    </property>\n"
    }

    /// Appends `value` as a variant of the property's type.
    package func append(_ value: FieldValue, to writer: inout MessageWriter) {
        if form == .count, case .int(let count) = value {
            writer.container(DBusType.variant, "t") { $0.append(UInt64(count)) }
        } else {
            writer.appendVariant(value)
        }
    }

    /// Appends `values` as `a{sv}`, by name.
    package static func append(_ values: [SessionProperty: FieldValue], to writer: inout MessageWriter) {
        writer.container(DBusType.array, "{sv}") { array in
            for property in values.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
                guard let value = values[property] else { continue }
                array.container(DBusType.dictEntry, nil) { entry in
                    entry.append(property.rawValue)
                    property.append(value, to: &entry)
                }
            }
        }
    }
}
