import RehearseCore

/// The original's form (`FormViewController.cs`): a full-screen scroll view holding a content view with
/// seven rounded text fields, 20 points apart with margins of 20, the first six with the Send
/// return key and the last with Done, tags 1 to 7 in order, then a Save button; the fields are
/// labelled `Field 1` to `Field 7` for accessibility.
///
/// The original's fields are 30-point rounded rects; here they are 50 high so that the content
/// (574 points) is taller than the iPhone 5's screen, as a form that needs scrolling is.
enum AutoScrollForm {
    static let fieldCount = 7
    static let fieldHeight = 50.0
    static let spacing = 20.0
    static let buttonHeight = 44.0

    static let preset = ScenePreset(
        name: "auto-scroll-form",
        summary: "a full-screen scroll view with seven text fields (Send, ..., Done) and a Save button"
    ) { scene in
        let width = scene.bounds.size.width
        let contentHeight = spacing + Double(fieldCount) * (fieldHeight + spacing) + buttonHeight + spacing
        var scroll = Node(id: "scroll", kind: .scrollView, frame: scene.bounds)
        scroll.contentSize = Size(width: width, height: contentHeight)
        try scene.add(scroll)
        try scene.add(
            Node(id: "content", kind: .view, frame: Rect(x: 0, y: 0, width: width, height: contentHeight)),
            to: "scroll")
        for index in 1...fieldCount {
            let y = spacing + Double(index - 1) * (fieldHeight + spacing)
            var field = Node(
                id: "field\(index)", kind: .textField,
                frame: Rect(x: spacing, y: y, width: width - 2 * spacing, height: fieldHeight))
            field.tag = index
            field.accessibilityLabel = "Field \(index)"
            field.returnKey = index < fieldCount ? .send : .done
            try scene.add(field, to: "content")
        }
        var save = Node(
            id: "save", kind: .button,
            frame: Rect(
                x: spacing, y: spacing + Double(fieldCount) * (fieldHeight + spacing),
                width: width - 2 * spacing, height: buttonHeight))
        save.text = "Save"
        try scene.add(save, to: "content")
    }
}
