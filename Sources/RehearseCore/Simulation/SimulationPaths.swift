/// A path that names nothing the simulation has.
public struct PathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "path '\(path)': \(reason)" }
}

extension Simulation {
    /// The system paths, read before node ids and plugin ids.
    public static let systemPaths = [
        "time", "keyboard.visible", "keyboard.frame", "keyboard.presentation.frame", "firstResponder",
        "orientation", "statusBar.hidden", "safeArea.top", "safeArea.left", "safeArea.bottom", "safeArea.right",
        "safeArea.frame", "children",
    ]

    /// The first names of ``systemPaths``: a path that starts with one is the system's to read first.
    static let systemHeads = Set(systemPaths.map { String($0.prefix { $0 != "." }) })

    /// The node properties a path can name besides the animatable ones.
    public static let nodeStatePaths = [
        "kind", "hidden", "text", "secure", "returnKey", "tag", "enablesReturnKeyAutomatically", "parent", "children",
        "decelerationRate", "bounces", "pagingEnabled", "keyboardDismissMode", "scrollEnabled",
        "directionalLockEnabled", "alwaysBounceVertical", "alwaysBounceHorizontal", "scrollsToTop",
        "minimumZoomScale", "maximumZoomScale", "bouncesZoom", "viewForZooming",
        "accessibilityLabel", "accessibilityTraits", "isAccessibilityElement",
    ]

    /// Reads a path: `title.frame.y` (model), `title.presentation.frame.y` (on screen now), system
    /// paths such as `keyboard.visible` and `firstResponder`, and `PLUGIN.KEY` for plugin state.
    /// A frame also has `maxX` and `maxY`, and a list `count` (`gateway.children.count`).
    /// Returns `nil` for an absent value (no first responder). Secure text reads as `<redacted>`.
    public func value(at path: String) throws(PathError) -> FieldValue? {
        try value(at: ValuePath(path))
    }

    /// Reads a path split once (``ValuePath``), for reads on every event.
    public func value(at path: ValuePath) throws(PathError) -> FieldValue? {
        do {
            return try ownValue(at: path)
        } catch {
            // `LIST.count`: read only when the path does not name a value of its own. The list is
            // read without this fallback: a count is a number, never a list, so `X.count.count`
            // reads nothing, and a path of many `.count`s costs two reads, not one a `.count`
            // (64 KiB of them, a D-Bus `Get`'s string, overflowed the stack).
            let parts = path.parts
            guard parts.count > 1, parts.last == "count",
                case .array(let list)? = try? ownValue(at: ValuePath(parts: parts.dropLast(), text: path.text))
            else { throw error }
            return .int(Int64(list.count))
        }
    }

    /// The value `path` names itself (``value(at:)-(ValuePath)`` less `LIST.count`).
    private func ownValue(at path: ValuePath) throws(PathError) -> FieldValue? {
        let parts = path.parts
        guard let head = parts.first, !parts.contains(where: \.isEmpty) else {
            throw PathError(path: path.text, reason: "a path is dot-separated names, such as title.frame.y")
        }
        if let value = try systemValue(parts, path: path.text) { return value }
        // The node is read in place: a path read after every event must not copy it.
        if let value = try scene.read(
            head, { node throws(PathError) in try nodeValue(node, Array(parts.dropFirst()), path: path.text) })
        {
            return value
        }
        if let plugin = plugin(head) {
            return try pluginValue(plugin.state, Array(parts.dropFirst()), plugin: head, path: path.text)
        }
        let heads = Self.systemHeads.union(scene.allIDs + pluginIDs).sorted()
        throw PathError(
            path: path.text,
            reason: "'\(head)' is not a node, a plugin or a system path\(Suggestion.hint(for: head, among: heads))")
    }

    /// `PLUGIN.KEY`, or `PLUGIN.KEY.SUBKEY` into a mapping of the plugin's state.
    private func pluginValue(_ state: Fields, _ keys: [String], plugin: String, path: String) throws(PathError) -> FieldValue {
        var level = state
        var read = "plugin '\(plugin)'"
        for (index, key) in keys.enumerated() {
            guard let value = level[key] else {
                let known = level.keys.sorted()
                throw PathError(
                    path: path,
                    reason: "\(read) has no key '\(key)'\(Suggestion.hint(for: key, among: known)); "
                        + "its keys: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
            }
            read = "'" + ([plugin] + keys[...index]).joined(separator: ".") + "'"
            guard index < keys.count - 1 else { return value }
            guard case .dictionary(let next) = value else { throw PathError(path: path, reason: "\(read) is a single value") }
            level = next
        }
        throw PathError(
            path: path, reason: "name a key of plugin '\(plugin)', such as \(plugin).\(state.keys.sorted().first ?? "KEY")")
    }

    private func systemValue(_ parts: [String], path: String) throws(PathError) -> FieldValue?? {
        switch parts[0] {
        case "time" where parts.count == 1:
            return .some(.double(now.seconds))
        case "firstResponder" where parts.count == 1:
            return .some(scene.firstResponder.map(FieldValue.string))
        case "orientation" where parts.count == 1:
            return .some(.string(scene.orientation.rawValue))
        case "children" where parts.count == 1:
            return .some(.array((scene.children(of: Scene.rootID) ?? []).map(FieldValue.string)))
        case "statusBar" where parts == ["statusBar", "hidden"]:
            return .some(.bool(scene.statusBarHidden))
        case "safeArea":
            let insets = scene.safeAreaInsets
            switch parts.dropFirst().first {
            case "top" where parts.count == 2: return .some(.double(insets.top))
            case "left" where parts.count == 2: return .some(.double(insets.left))
            case "bottom" where parts.count == 2: return .some(.double(insets.bottom))
            case "right" where parts.count == 2: return .some(.double(insets.right))
            case "frame": return .some(try component(of: .frame, scene.safeAreaFrame.vector, Array(parts.dropFirst(2)), path))
            default:
                throw PathError(
                    path: path, reason: "the safe area has top, left, bottom, right and frame.{x,y,width,height,maxX,maxY}")
            }
        case "keyboard":
            switch parts.dropFirst().first {
            case "visible" where parts.count == 2: return .some(.bool(keyboard.isVisible))
            case "frame": return .some(try component(of: .frame, keyboard.frame.vector, Array(parts.dropFirst(2)), path))
            case "presentation" where parts.count >= 3 && parts[2] == "frame":
                return .some(try component(of: .frame, keyboard.presentationFrame.vector, Array(parts.dropFirst(3)), path))
            default:
                throw PathError(path: path, reason: "the keyboard has visible, frame.{x,y,width,height} and presentation.frame")
            }
        default:
            return nil
        }
    }

    private func nodeValue(_ node: Node, _ rest: [String], path: String) throws(PathError) -> FieldValue? {
        var rest = rest
        var presentation = false
        if rest.first == "presentation" {
            presentation = true
            rest.removeFirst()
        }
        guard let name = rest.first else {
            throw PathError(path: path, reason: "name a property of '\(node.id)', such as \(node.id).frame.y")
        }
        if let property = AnimatableProperty(rawValue: name) {
            let vector = presentation ? animator.presentationValue(of: property, of: node.id) ?? node[property] : node[property]
            return try component(of: property, vector, Array(rest.dropFirst()), path)
        }
        let animatable = AnimatableProperty.allCases.map(\.rawValue)
        guard Self.nodeStatePaths.contains(name) else {
            let known = presentation ? animatable : animatable + Self.nodeStatePaths
            throw PathError(
                path: path,
                reason: "node '\(node.id)' has no property '\(name)'\(Suggestion.hint(for: name, among: known)); "
                    + "\(presentation ? "presentation values exist for" : "its properties:") \(known.joined(separator: ", "))")
        }
        guard !presentation else {
            throw PathError(
                path: path, reason: "presentation values exist for \(animatable.joined(separator: ", ")), not \(name)")
        }
        guard rest.count == 1 else { throw PathError(path: path, reason: "'\(node.id).\(name)' has no parts") }
        switch name {
        case "kind": return .string(node.kind.rawValue)
        case "hidden": return .bool(node.hidden)
        case "text": return .string(node.secure ? Redaction.placeholder : node.text)
        case "secure": return .bool(node.secure)
        case "returnKey": return .string(node.returnKey.rawValue)
        case "tag": return .int(Int64(node.tag))
        case "enablesReturnKeyAutomatically": return .bool(node.enablesReturnKeyAutomatically)
        case "parent": return node.parent.map(FieldValue.string)
        case "children": return .array(node.children.map(FieldValue.string))
        case "decelerationRate": return node.decelerationRate.fieldValue
        case "bounces": return .bool(node.bounces)
        case "scrollEnabled": return .bool(node.scrollEnabled)
        case "pagingEnabled": return .bool(node.pagingEnabled)
        case "keyboardDismissMode": return .string(node.keyboardDismissMode.rawValue)
        case "directionalLockEnabled": return .bool(node.directionalLockEnabled)
        case "alwaysBounceVertical": return .bool(node.alwaysBounceVertical)
        case "alwaysBounceHorizontal": return .bool(node.alwaysBounceHorizontal)
        case "scrollsToTop": return .bool(node.scrollsToTop)
        case "minimumZoomScale": return .double(node.minimumZoomScale)
        case "maximumZoomScale": return .double(node.maximumZoomScale)
        case "bouncesZoom": return .bool(node.bouncesZoom)
        case "viewForZooming": return node.viewForZooming.map(FieldValue.string)
        case "accessibilityLabel": return node.accessibilityLabel.map(FieldValue.string)
        case "accessibilityTraits": return node.accessibilityTraits.fieldValue
        case "isAccessibilityElement": return .bool(node.isAccessibilityElement)
        default:
            preconditionFailure("nodeStatePaths names '\(name)', which this switch does not read")
        }
    }

    private func component(
        of property: AnimatableProperty, _ vector: SIMD4<Double>, _ rest: [String],
        _ path: String
    ) throws(PathError) -> FieldValue {
        try PropertyPart(of: property, rest, path: path).value(of: property, vector)
    }
}

/// A path split into its names once, so that reading it again (an invariant, after every event)
/// splits nothing.
public struct ValuePath: Hashable, Sendable, CustomStringConvertible {
    /// The path as written.
    public let text: String
    let parts: [String]

    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    init(parts: some Sequence<String>, text: String) {
        self.text = text
        self.parts = Array(parts)
    }

    public var description: String { text }
}
