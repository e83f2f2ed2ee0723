/// A request naming one node: `focus` (make it first responder), `return` (the return key in it).
public struct NodeTarget: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(target: ""), .required("target", \.target))

    /// The node's id.
    public var target: String

    public init(target: String) {
        self.target = target
    }
}

extension EventKind where Payload == NodeTarget {
    public static var focus: Self { Self(.focus) { if case .focus(let p) = $0 { p } else { nil } } }
    public static var returnKey: Self { Self(.returnKey) { if case .returnKey(let p) = $0 { p } else { nil } } }
    public static var scrollWillBeginDragging: Self {
        Self(.scrollWillBeginDragging) { if case .scrollWillBeginDragging(let p) = $0 { p } else { nil } }
    }
}

/// A request to end editing: in one node, or in the whole scene when `target` is absent.
public struct ResignRequest: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(), .optional("target", \.target))

    /// The node that should resign, or `nil` for the whole scene.
    public var target: String?

    public init(target: String? = nil) {
        self.target = target
    }
}

extension EventKind where Payload == ResignRequest {
    public static var resign: Self { Self(.resign) { if case .resign(let p) = $0 { p } else { nil } } }
}

/// The first responder moved; either side may be absent.
public struct FocusChange: TabulatedPayload {
    public static let fieldTable = FieldTable(Self(from: nil, to: nil), .optional("from", \.from), .optional("to", \.to))

    public var from: String?
    public var to: String?

    public init(from: String?, to: String?) {
        self.from = from
        self.to = to
    }
}

extension EventKind where Payload == FocusChange {
    public static var focusChanged: Self { Self(.focusChanged) { if case .focusChanged(let p) = $0 { p } else { nil } } }
}

/// A tap at a screen point or on a node. As delivered it carries both, plus whether the hit node
/// is a control.
public struct Tap: DeclaredPayload {
    public static let payloadFields = PayloadFields(
        .optional("x", Double.self), .optional("y", Double.self), .optional("target", String.self),
        .optional("isControl", Bool.self),
        remark: "x and y, or target; delivered with target and isControl", alternatives: [["x", "y"], ["target"]])

    /// Where the tap landed, in screen coordinates.
    public var point: Point?
    /// The node hit (as delivered), or the node aimed at (as injected).
    public var target: String?
    /// Whether the hit node is a control (a button or a text field); set on delivery.
    public var isControl: Bool?

    public init(point: Point? = nil, target: String? = nil, isControl: Bool? = nil) {
        self.point = point
        self.target = target
        self.isControl = isControl
    }

    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields, declared: Self.payloadFields)
        let x: Double? = try reader.optional("x")
        let y: Double? = try reader.optional("y")
        target = try reader.optional("target")
        isControl = try reader.optional("isControl")
        try reader.finish()
        switch (x, y) {
        case (let x?, let y?): point = Point(x: x, y: y)
        case (nil, nil): point = nil
        case (nil, _): throw FieldError(path: "x", problem: .missing)
        case (_, nil): throw FieldError(path: "y", problem: .missing)
        }
        guard point != nil || target != nil else {
            throw FieldError(path: "", problem: .invalidValue("a tap needs x and y, or a target"))
        }
    }

    public var fields: Fields {
        var fields: Fields = [:]
        fields["x"] = point.map { .double($0.x) }
        fields["y"] = point.map { .double($0.y) }
        fields["target"] = target.map(FieldValue.string)
        fields["isControl"] = isControl.map(FieldValue.bool)
        return fields
    }
}

extension EventKind where Payload == Tap {
    public static var tap: Self { Self(.tap) { if case .tap(let p) = $0 { p } else { nil } } }
}

/// Text typed into a node. Text aimed at a secure field travels as ``Redaction/placeholder``, and
/// so does text that holds what a secure field holds now, wherever it is typed.
public struct TextInput: TabulatedPayload {
    public static let fieldTable = FieldTable(
        Self(target: "", text: ""), .required("target", \.target), .required("text", \.text))

    public var target: String
    public var text: String

    public init(target: String, text: String) {
        self.target = target
        self.text = text
    }
}

extension EventKind where Payload == TextInput {
    public static var text: Self { Self(.text) { if case .text(let p) = $0 { p } else { nil } } }
}
