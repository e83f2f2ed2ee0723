/// A value with a field form: it reads itself from a ``FieldValue`` and writes itself back.
public protocol FieldConvertible {
    /// Reads the value; `path` names the field in errors.
    init(field value: FieldValue, path: String) throws(FieldError)
    /// The value's field form.
    var fieldValue: FieldValue { get }
    /// The form a value must have to be read (what the JSON Schema checks).
    static var fieldShape: FieldShape { get }
}

extension Double: FieldConvertible {
    public static var fieldShape: FieldShape { .number }

    /// Reads a finite number (an integer is accepted).
    public init(field value: FieldValue, path: String) throws(FieldError) {
        guard let number = value.number else {
            throw FieldError(path: path, problem: .wrongType(expected: "a number", found: value.typeName))
        }
        guard number.isFinite else {
            throw FieldError(path: path, problem: .invalidValue("must be a finite number, found \(number)"))
        }
        self = number
    }

    public var fieldValue: FieldValue { .double(self) }
}

extension Int: FieldConvertible {
    public static var fieldShape: FieldShape { .integer }

    /// Reads an integer (a number with no fractional part is accepted).
    public init(field value: FieldValue, path: String) throws(FieldError) {
        switch value {
        case .int(let integer) where Int(exactly: integer) != nil:
            self = Int(integer)
        case .double(let number) where Int(exactly: number) != nil:
            self = Int(number)
        default:
            throw FieldError(path: path, problem: .wrongType(expected: "an integer", found: value.typeName))
        }
    }

    public var fieldValue: FieldValue { .int(Int64(self)) }
}

extension Bool: FieldConvertible {
    public static var fieldShape: FieldShape { .boolean }

    public init(field value: FieldValue, path: String) throws(FieldError) {
        guard case .bool(let flag) = value else {
            throw FieldError(path: path, problem: .wrongType(expected: "a boolean", found: value.typeName))
        }
        self = flag
    }

    public var fieldValue: FieldValue { .bool(self) }
}

extension String: FieldConvertible {
    public static var fieldShape: FieldShape { .string }

    public init(field value: FieldValue, path: String) throws(FieldError) {
        guard case .string(let text) = value else {
            throw FieldError(path: path, problem: .wrongType(expected: "a string", found: value.typeName))
        }
        self = text
    }

    public var fieldValue: FieldValue { .string(self) }
}

extension Rect: FieldConvertible {
    private static let numberKeys = ["x", "y", "width", "height"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{x, y, width, height}` or `[x, y, width, height]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    public var fieldValue: FieldValue {
        ["x": .double(minX), "y": .double(minY), "width": .double(size.width), "height": .double(size.height)]
    }
}

extension Point: FieldConvertible {
    private static let numberKeys = ["x", "y"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{x, y}` or `[x, y]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(x: numbers[0], y: numbers[1])
    }

    public var fieldValue: FieldValue { ["x": .double(x), "y": .double(y)] }
}

extension Size: FieldConvertible {
    private static let numberKeys = ["width", "height"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{width, height}` or `[width, height]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(width: numbers[0], height: numbers[1])
    }

    public var fieldValue: FieldValue { ["width": .double(width), "height": .double(height)] }
}

extension EdgeInsets: FieldConvertible {
    private static let numberKeys = ["top", "left", "bottom", "right"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{top, left, bottom, right}` or `[top, left, bottom, right]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
    }

    public var fieldValue: FieldValue {
        ["top": .double(top), "left": .double(left), "bottom": .double(bottom), "right": .double(right)]
    }
}

extension Vector3: FieldConvertible {
    private static let numberKeys = ["x", "y", "z"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{x, y, z}` or `[x, y, z]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(x: numbers[0], y: numbers[1], z: numbers[2])
    }

    public var fieldValue: FieldValue { ["x": .double(x), "y": .double(y), "z": .double(z)] }
}

extension Attitude: FieldConvertible {
    private static let numberKeys = ["roll", "pitch", "yaw"]
    public static var fieldShape: FieldShape { .numbers(numberKeys) }

    /// Reads `{roll, pitch, yaw}` or `[roll, pitch, yaw]`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let numbers = try FieldReader.numbers(value, path: path, keys: Self.numberKeys)
        self.init(roll: numbers[0], pitch: numbers[1], yaw: numbers[2])
    }

    public var fieldValue: FieldValue { ["roll": .double(roll), "pitch": .double(pitch), "yaw": .double(yaw)] }
}

extension FieldValue: FieldConvertible {
    public static var fieldShape: FieldShape { .any }

    /// Any value, as given.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        self = value
    }

    public var fieldValue: FieldValue { self }
}

extension Dictionary: FieldConvertible where Key == String, Value == FieldValue {
    public static var fieldShape: FieldShape { .mapping }

    /// A mapping.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        guard case .dictionary(let fields) = value else {
            throw FieldError(path: path, problem: .wrongType(expected: "a mapping", found: value.typeName))
        }
        self = fields
    }

    public var fieldValue: FieldValue { .dictionary(self) }
}

extension Array: FieldConvertible where Element: FieldConvertible {
    public static var fieldShape: FieldShape { .list(Element.fieldShape) }

    /// A list whose items are each read as `Element`.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        guard case .array(let items) = value else {
            throw FieldError(path: path, problem: .wrongType(expected: "a list", found: value.typeName))
        }
        var elements: [Element] = []
        for (index, item) in items.enumerated() { elements.append(try Element(field: item, path: "\(path).\(index)")) }
        self = elements
    }

    public var fieldValue: FieldValue { .array(map(\.fieldValue)) }
}
