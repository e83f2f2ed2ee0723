extension Node {
    /// The node properties a field dictionary may set, besides `id`, `kind`, `parent` and `frame`.
    public static let fieldNames = [
        "text", "secure", "returnKey", "tag", "enablesReturnKeyAutomatically", "hidden", "alpha",
        "contentSize", "contentOffset", "contentInset", "scrollIndicatorInsets", "zoomScale", "strokeStart", "strokeEnd",
        "minimumZoomScale", "maximumZoomScale", "bouncesZoom", "viewForZooming",
        "decelerationRate", "bounces", "pagingEnabled", "keyboardDismissMode", "scrollEnabled",
        "directionalLockEnabled", "alwaysBounceVertical", "alwaysBounceHorizontal", "scrollsToTop",
        "accessibilityLabel", "accessibilityTraits", "isAccessibilityElement",
    ]

    /// Reads a node from `{id, kind, parent?, frame, ...properties}` (frame `[x, y, width, height]`
    /// or a mapping); returns it with its parent's id (`nil`: the root).
    public static func read(fields: Fields) throws(FieldError) -> (node: Node, parent: String?) {
        var reader = FieldReader(fields)
        let id: String = try reader.required("id")
        guard let kind = try reader.choice("kind", as: NodeKind.self) else {
            throw FieldError(path: "kind", problem: .missing)
        }
        let parent: String? = try reader.optional("parent")
        var node = Node(id: id, kind: kind, frame: try reader.required("frame"))
        node.text = try reader.optional("text") ?? node.text
        try ScenarioLimits.checkText(node.text, path: "text")
        node.secure = try reader.optional("secure") ?? node.secure
        node.returnKey = try reader.choice("returnKey") ?? node.returnKey
        node.tag = try reader.optional("tag") ?? node.tag
        node.enablesReturnKeyAutomatically =
            try reader.optional("enablesReturnKeyAutomatically")
            ?? node.enablesReturnKeyAutomatically
        node.hidden = try reader.optional("hidden") ?? node.hidden
        node.alpha = try reader.optional("alpha") ?? node.alpha
        node.contentSize = try reader.optional("contentSize") ?? node.contentSize
        node.contentOffset = try reader.optional("contentOffset") ?? node.contentOffset
        node.contentInset = try reader.optional("contentInset") ?? node.contentInset
        node.scrollIndicatorInsets = try reader.optional("scrollIndicatorInsets") ?? node.scrollIndicatorInsets
        node.zoomScale = try reader.optional("zoomScale") ?? node.zoomScale
        node.minimumZoomScale = try reader.optional("minimumZoomScale") ?? node.minimumZoomScale
        node.maximumZoomScale = try reader.optional("maximumZoomScale") ?? node.maximumZoomScale
        node.bouncesZoom = try reader.optional("bouncesZoom") ?? node.bouncesZoom
        node.viewForZooming = try reader.optional("viewForZooming")
        try Zooming.check(node)
        node.strokeStart = try reader.optional("strokeStart") ?? node.strokeStart
        node.strokeEnd = try reader.optional("strokeEnd") ?? node.strokeEnd
        node.decelerationRate = try reader.optional("decelerationRate") ?? node.decelerationRate
        node.bounces = try reader.optional("bounces") ?? node.bounces
        node.scrollEnabled = try reader.optional("scrollEnabled") ?? node.scrollEnabled
        node.pagingEnabled = try reader.optional("pagingEnabled") ?? node.pagingEnabled
        node.keyboardDismissMode = try reader.choice("keyboardDismissMode") ?? node.keyboardDismissMode
        node.directionalLockEnabled = try reader.optional("directionalLockEnabled") ?? node.directionalLockEnabled
        node.alwaysBounceVertical = try reader.optional("alwaysBounceVertical") ?? node.alwaysBounceVertical
        node.alwaysBounceHorizontal = try reader.optional("alwaysBounceHorizontal") ?? node.alwaysBounceHorizontal
        node.scrollsToTop = try reader.optional("scrollsToTop") ?? node.scrollsToTop
        node.accessibilityLabel = try reader.optional("accessibilityLabel")
        try node.accessibilityLabel.map { label throws(FieldError) in
            try ScenarioLimits.checkText(label, path: "accessibilityLabel")
        }
        node.accessibilityTraits = try reader.optional("accessibilityTraits") ?? node.accessibilityTraits
        node.isAccessibilityElement = try reader.optional("isAccessibilityElement") ?? node.isAccessibilityElement
        try reader.finish()
        // A control character would be cut or forged where the id is written (a D-Bus string
        // ends at a NUL; a log line at a newline).
        guard !id.isEmpty, !id.contains("."), !id.unicodeScalars.contains(where: \.isControlCharacter),
            !Scene.reservedIDs.contains(id)
        else {
            let reserved = Scene.reservedIDs.sorted().joined(separator: ", ")
            throw FieldError(
                path: "id",
                problem: .invalidValue("must be a name without dots or control characters, and not one of \(reserved)"))
        }
        return (node, parent)
    }
}
