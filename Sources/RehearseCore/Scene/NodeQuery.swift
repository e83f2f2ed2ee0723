/// Which node a step, a harness call or a D-Bus target means: an id, or what the node shows and
/// is, every given part holding (`{text: "Log in", kind: button}`), with `index` to pick one of
/// several in reading order. Found in the scene when it is used, by ``resolve(in:)``: the one
/// place queries are answered.
///
/// - `id`: the node's id.
/// - `text`: the node's whole text, exactly (Swift's `==`: case and every character count; no
///   substring, no pattern). A secure field's text never matches, and is never compared.
/// - `label`: its ``Node/accessibilityLabel``, exactly (a node with none never matches).
/// - `kind`: its ``NodeKind``.
/// - `traits`: it has every one of these ``AccessibilityTraits`` (and maybe others).
/// - `index`: 0 for the first match in reading order, ... (see ``readingOrder(_:in:)``); without
///   it a query must match exactly one node.
///
/// Every node of the scene is searched, hidden or not (whether a node can be seen is not part of
/// finding it).
public struct NodeQuery: Hashable, Sendable, CustomStringConvertible {
    public var id: String?
    public var text: String?
    public var label: String?
    public var kind: NodeKind?
    public var traits: AccessibilityTraits?
    public var index: Int?

    /// A query of the given parts; at least one of `id`, `text`, `label`, `kind` and `traits`.
    public init(
        id: String? = nil, text: String? = nil, label: String? = nil, kind: NodeKind? = nil,
        traits: AccessibilityTraits? = nil, index: Int? = nil
    ) {
        self.id = id
        self.text = text
        self.label = label
        self.kind = kind
        self.traits = traits
        self.index = index
    }

    /// The node with this id.
    public static func id(_ id: String) -> Self { Self(id: id) }
    /// The node whose text is exactly `text`.
    public static func text(_ text: String) -> Self { Self(text: text) }
    /// The node whose accessibility label is exactly `label`.
    public static func label(_ label: String) -> Self { Self(label: label) }
    /// The node of this kind.
    public static func kind(_ kind: NodeKind) -> Self { Self(kind: kind) }

    /// This query, picking the `index`-th match in reading order.
    public func at(_ index: Int) -> Self {
        var query = self
        query.index = index
        return query
    }

    /// The keys of a query's field form, in the order a description writes them.
    public static let keys = ["id", "text", "label", "kind", "traits", "index"]

    /// Whether the query is only an id (`{id: x}` or `x`): what can be checked when a file loads.
    public var isID: Bool { self == Self(id: id) && id != nil }

    /// Whether `node` has every part the query gives (``index`` aside).
    public func matches(_ node: Node) -> Bool {
        (id.map { $0 == node.id } ?? true)
            && (kind.map { $0 == node.kind } ?? true)
            && (traits.map { node.accessibilityTraits.isSuperset(of: $0) } ?? true)
            && (label.map { $0 == node.accessibilityLabel } ?? true)
            && (text.map { !node.secure && $0 == node.text } ?? true)
    }

    public var description: String {
        let parts: [(String, String?)] = [
            ("id", id.map(Self.quoted)), ("text", text.map(Self.quoted)), ("label", label.map(Self.quoted)),
            ("kind", kind?.rawValue), ("traits", traits.map { "[\($0.names.joined(separator: ", "))]" }),
            ("index", index.map(String.init)),
        ]
        return "{" + parts.compactMap { key, value in value.map { "\(key): \($0)" } }.joined(separator: ", ") + "}"
    }

    /// The longest text a description or a candidate quotes, in characters; past it a text is cut
    /// with `…`, so a 10,000-character text makes a short message.
    public static let quotedLength = 40

    /// `text` as a JSON string (control characters escaped), cut at ``quotedLength``.
    static func quoted(_ text: String) -> String {
        let cut = text.count > quotedLength ? String(text.prefix(quotedLength)) + "…" : text
        return FieldValue.string(cut).jsonText
    }
}

extension NodeQuery {
    /// Reads `{id?, text?, label?, kind?, traits?, index?}` with at least one of the first five:
    /// `text` and `label` non-empty and at most ``ScenarioLimits/textLength``, `index` 0 to
    /// ``ScenarioLimits/queryIndex``.
    public init(fields: Fields) throws(FieldError) {
        var reader = FieldReader(fields)
        self.init(
            id: try reader.optional("id"), text: try reader.optional("text"), label: try reader.optional("label"),
            kind: try reader.choice("kind"), traits: try reader.optional("traits"), index: try reader.optional("index"))
        try reader.finish()
        for (key, value) in [("id", id), ("text", text), ("label", label)] {
            guard let value else { continue }
            guard !value.isEmpty else { throw FieldError(path: key, problem: .invalidValue("must not be empty")) }
            try ScenarioLimits.checkText(value, path: key)
        }
        guard id != nil || text != nil || label != nil || kind != nil || traits != nil else {
            throw FieldError(path: "", problem: .invalidValue("a node query needs at least one of id, text, label, kind, traits"))
        }
        if let index, !(0...ScenarioLimits.queryIndex).contains(index) {
            throw FieldError(
                path: "index",
                problem: .invalidValue(
                    "must be 0 to \(ScenarioLimits.queryIndex) (ScenarioLimits.queryIndex), found \(index)"))
        }
    }

    /// Reads a node argument given as a field (a D-Bus `Gesture`'s `on`, `IsVisible`'s query): a
    /// string is an id, a mapping a query (``init(fields:)``); whether the node is there is
    /// found when the query is resolved.
    public init(field: FieldValue) throws(FieldError) {
        switch field {
        case .string(let id):
            guard !id.isEmpty else { throw FieldError(path: "", problem: .invalidValue("a node id must not be empty")) }
            try ScenarioLimits.checkText(id, path: "id")
            self = .id(id)
        case .dictionary(let fields):
            try self.init(fields: fields)
        case .bool, .int, .double, .array:
            throw FieldError(path: "", problem: .wrongType(expected: "a node id or a query mapping", found: field.typeName))
        }
    }

    /// The query's field form, the keys it gives only.
    public var fields: Fields {
        var fields: Fields = [:]
        fields["id"] = id.map(FieldValue.string)
        fields["text"] = text.map(FieldValue.string)
        fields["label"] = label.map(FieldValue.string)
        fields["kind"] = kind.map { .string($0.rawValue) }
        fields["traits"] = traits?.fieldValue
        fields["index"] = index.map { .int(Int64($0)) }
        return fields
    }
}
