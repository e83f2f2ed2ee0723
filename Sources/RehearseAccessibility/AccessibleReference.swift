import RehearseCore
import RehearseDBusWire

/// An object on the accessibility bus as AT-SPI names one, `(so)`: its connection's bus name and
/// its path.
struct AccessibleReference: Equatable {
    var name: String
    var path: String

    /// Node `id`'s object on the connection named `name`.
    static func node(_ id: String, on name: String) -> AccessibleReference {
        AccessibleReference(name: name, path: AccessiblePaths.path(of: id))
    }

    /// The struct's members (the caller opens the struct).
    func append(to writer: inout MessageWriter) {
        writer.append(name)
        writer.append(objectPath: path)
    }

    /// `(so)`.
    func appendStruct(to writer: inout MessageWriter) {
        writer.container(DBusType.struct, nil) { append(to: &$0) }
    }
}

/// A property's value as D-Bus gives it in a variant.
enum AccessibleProperty {
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    case reference(AccessibleReference)
    /// A rectangle as AT-SPI's `(iiii)`: x, y, width and height in whole points.
    case rect(Rect)

    /// The value in a variant.
    func appendVariant(to writer: inout MessageWriter) {
        switch self {
        case .string(let text): writer.container(DBusType.variant, "s") { $0.append(text) }
        case .int32(let number): writer.container(DBusType.variant, "i") { $0.append(number) }
        case .uint32(let number): writer.container(DBusType.variant, "u") { $0.append(number) }
        case .reference(let reference): writer.container(DBusType.variant, "(so)") { reference.appendStruct(to: &$0) }
        case .rect(let rect): writer.container(DBusType.variant, "(iiii)") { Self.appendRect(rect, to: &$0) }
        }
    }

    /// `rect` as `(iiii)`: rounded to whole points, held in int32's range.
    static func appendRect(_ rect: Rect, to writer: inout MessageWriter) {
        writer.container(DBusType.struct, nil) { fields in
            [rect.minX, rect.minY, rect.size.width, rect.size.height].forEach { fields.append(AccessibilityExport.integer($0)) }
        }
    }
}
