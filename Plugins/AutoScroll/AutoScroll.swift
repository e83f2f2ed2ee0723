import RehearseCore

/// The auto-scroll helper of "Making iOS forms usable" (xleon/AutoScroll, `AutoScrollHelper.cs`):
/// when the keyboard shows, the first responder's nearest scroll view gets bottom insets of the
/// keyboard's height and scrolls the field to the middle of the space above the keyboard; when it
/// hides, the insets go back. Taps that do not land on a control end editing; Done ends editing and
/// emits `form.save`, other return keys move to the field with the next tag.
///
/// Defaults reproduce the original, quirks included: one handler for show and hide, hide reading
/// the begin frame, landscape using the keyboard frame's width and the scroll view's width, no
/// clamping, x forced to 0, insets overwritten, and scrolling the field into view even while the
/// user's finger holds the form. The options fix what the original gets wrong.
public final class AutoScroll: Plugin {
    public struct Configuration: Codable, Sendable, Equatable {
        /// Keep the offset within [-inset.top, contentHeight + inset.bottom - boundsHeight].
        public var clamp = false
        /// Add the keyboard to the insets that were there, and restore them on hide.
        public var keepInsets = false
        /// `original`: the keyboard frame's height (width in landscape); `measured`: its real
        /// overlap with the scroll view in screen coordinates.
        public var overlap = Overlap.original
        /// `tags`: the next field is the one tagged one more; `layout`: the next one down the screen.
        public var order = Order.tags
        /// What it does when the keyboard changes while the user scrolls its scroll view (a finger
        /// drags it, or it still moves after one let go): `original` scrolls the field into view
        /// anyway, under the finger, as the original (which knew nothing of scrolling) does; `pause`
        /// sets the insets and leaves the offset to the user; `resume` also scrolls the field into
        /// view once the scroll view has come to rest, if it is still focused.
        public var whileUserScrolls = WhileUserScrolls.original

        public init() {}
    }

    public enum Overlap: String, Codable, Sendable, CaseIterable { case original, measured }
    public enum Order: String, Codable, Sendable, CaseIterable { case tags, layout }
    public enum WhileUserScrolls: String, Codable, Sendable, CaseIterable { case original, pause, resume }

    public static let id = "auto-scroll"
    public static let summary = "keeps the focused field visible above the keyboard (xleon/AutoScroll)"
    public static let stateKeys = [
        PluginStateKey(
            "keyboardHeight",
            "the keyboard overlap it last scrolled for: the frame's height as the original reads it "
                + "(its width in landscape), or with overlap: measured the part over the scroll view; 0 until the keyboard first shows"
        ),
        PluginStateKey("scrollView", "the id of the scroll view it adjusted for the keyboard, or \"\""),
        PluginStateKey(
            "userScrolling",
            "whether the user is scrolling the scroll view it adjusted (dragging it, or it still "
                + "moves after a drag): with whileUserScrolls pause or resume it leaves the offset alone meanwhile"),
    ]
    public static let defaultConfiguration = Configuration()
    public static let events: [any PluginEvent.Type] = [FormSave.self]
    public static let scene: ScenePreset? = AutoScrollForm.preset

    private let configuration: Configuration
    private let context: PluginContext
    /// The scroll view adjusted for the keyboard, and its insets before that.
    private var adjusted: (scrollView: String, content: EdgeInsets, indicators: EdgeInsets)?
    private var keyboardHeight = 0.0
    /// The keyboard change whose scrolling was left to the user, to make once the user is done (`resume`).
    private var postponed: KeyboardChange?

    public init(configuration: Configuration, context: PluginContext) {
        self.configuration = configuration
        self.context = context
        context.on(.keyboardWillShow) { [unowned self] change in try keyboardChanged(change, visible: true) }
        context.on(.keyboardWillHide) { [unowned self] change in try keyboardChanged(change, visible: false) }
        context.on(.tap) { tap in
            // DismissKeyboardOnTap: ShouldReceiveTouch = !(touch.View is UIControl).
            guard tap.isControl == false else { return }
            try context.emit(.resign(ResignRequest()))
        }
        context.on(.returnKey) { [unowned self] request in try returnPressed(in: request.target) }
        if configuration.whileUserScrolls == .resume {
            context.on(.scrollWillEndDragging) { [unowned self] release in try userStoppedScrolling(release.target) }
            context.on(.scrollDidEndDecelerating) { [unowned self] position in try userStoppedScrolling(position.target) }
        }
        if configuration.clamp {
            context.invariant("the focused field is above the keyboard") { [unowned self] in focusedFieldClear() }
        }
    }

    public var state: Fields {
        [
            "keyboardHeight": .double(keyboardHeight), "scrollView": .string(adjusted?.scrollView ?? ""),
            "userScrolling": .bool(adjusted.map { context.isScrolling($0.scrollView) } ?? false),
        ]
    }

    /// `resume`: the user let go of `scrollView` and it has come to rest: the postponed scrolling now.
    private func userStoppedScrolling(_ scrollView: String) throws {
        guard let change = postponed, adjusted?.scrollView == scrollView, !context.isScrolling(scrollView) else { return }
        postponed = nil
        guard context.keyboard.isVisible else { return }
        try keyboardChanged(change, visible: true)
    }

    /// With `clamp`, once the keyboard has arrived the first responder inside the adjusted scroll
    /// view is above it (model values: where the scrolling ends).
    private func focusedFieldClear() -> InvariantOutcome {
        let keyboard = context.keyboard
        let scene = context.scene
        guard keyboard.isVisible, !keyboard.isMoving, let adjusted, let active = scene.firstResponder,
            scene.ancestors(of: active).contains(adjusted.scrollView),
            let field = scene.frameInScreen(active)
        else { return .holds }
        let top = keyboard.frame.minY
        guard field.maxY > top + Condition.tolerance else { return .holds }
        return .broken(actual: "\(active).frame.maxY = \(field.maxY)", expected: "<= keyboard.frame.y = \(top)")
    }

    // MARK: Keyboard

    private func keyboardChanged(_ change: KeyboardChange, visible: Bool) throws {
        let scene = context.scene
        let landscape = scene.orientation.isLandscape
        let frame = visible ? change.frame : change.beginFrame
        let parameters = AnimationParameters(
            duration: change.duration, curve: change.curve.curve,
            options: .beginFromCurrentState)
        guard visible else {
            // The original looks the first responder up again; on iOS it is still found while the
            // keyboard hides, here focus has already moved, so the scroll view it adjusted is used.
            guard let adjusted else { return }
            self.adjusted = nil
            let restore = configuration.keepInsets
            try context.animate(parameters) {
                try context.set((restore ? adjusted.content : .zero).vector, for: .contentInset, of: adjusted.scrollView)
                try context.set(
                    (restore ? adjusted.indicators : .zero).vector, for: .scrollIndicatorInsets,
                    of: adjusted.scrollView)
            }
            return
        }
        guard let active = scene.firstResponder, let field = scene[active],
            let scrollID = scene.ancestors(of: active).first(where: { scene[$0]?.kind == .scrollView }),
            let scroll = scene[scrollID]
        else { return }
        if adjusted?.scrollView != scrollID {
            adjusted = (scrollID, scroll.contentInset, scroll.scrollIndicatorInsets)
        }
        let height: Double
        let visibleHeight: Double
        switch configuration.overlap {
        case .original:
            height = landscape ? frame.size.width : frame.size.height
            visibleHeight = (landscape ? scroll.frame.size.width : scroll.frame.size.height) - height
        case .measured:
            let onScreen = scene.frameInScreen(scrollID) ?? scroll.frame
            height = onScreen.intersection(frame)?.size.height ?? 0
            visibleHeight = scroll.frame.size.height - height
        }
        keyboardHeight = height
        var content = EdgeInsets(top: 0, left: 0, bottom: height, right: 0)
        var indicators = content
        if configuration.keepInsets, let adjusted {
            content = adjusted.content
            content.bottom += height
            indicators = adjusted.indicators
            indicators.bottom += height
        }
        var offset = fieldY(active, in: scrollID) - (visibleHeight - field.frame.size.height) / 2
        if configuration.clamp {
            let highest = scroll.contentSize.height + content.bottom - scroll.frame.size.height
            offset = min(max(offset, -content.top), max(highest, -content.top))
        }
        let leavesOffset = configuration.whileUserScrolls != .original && context.isScrolling(scrollID)
        if leavesOffset, configuration.whileUserScrolls == .resume { postponed = change }
        try context.animate(parameters) {
            try context.set(content.vector, for: .contentInset, of: scrollID)
            try context.set(indicators.vector, for: .scrollIndicatorInsets, of: scrollID)
            if !leavesOffset { try context.set(Point(x: 0, y: offset).vector, for: .contentOffset, of: scrollID) }
        }
    }

    /// The field's top in the scroll view's content coordinates (`ConvertRectToView`).
    private func fieldY(_ id: String, in scrollID: String) -> Double {
        let scene = context.scene
        var y = scene[id]?.frame.minY ?? 0
        for ancestor in scene.ancestors(of: id) {
            guard ancestor != scrollID, let node = scene[ancestor] else { break }
            y += node.frame.minY - node.boundsOrigin.y
        }
        return y
    }

    // MARK: Return keys

    private func returnPressed(in id: String) throws {
        guard let field = context.scene[id] else { return }
        if field.returnKey == .done {
            try context.emit(.resign(ResignRequest()))
            try context.emit(FormSave())
            return
        }
        if let next = nextField(after: field, in: context.scene) {
            try context.emit(.focus(NodeTarget(target: next)))
        } else {
            try context.emit(.resign(ResignRequest()))
        }
    }

    private func nextField(after field: Node, in scene: Scene) -> String? {
        let fields = scene.allIDs.filter { scene[$0]?.kind.isTextInput == true && $0 != field.id }
        switch configuration.order {
        case .tags:
            return fields.first { scene[$0]?.tag == field.tag + 1 }
        case .layout:
            guard let here = scene.frameInScreen(field.id) else { return nil }
            let below = fields.compactMap { id in scene.frameInScreen(id).map { (id, $0) } }
                .filter { ($0.1.minY, $0.1.minX) > (here.minY, here.minX) }
            return below.min { ($0.1.minY, $0.1.minX) < ($1.1.minY, $1.1.minX) }?.0
        }
    }
}

/// The user pressed Done: the form asks to be saved.
public struct FormSave: PluginEvent, Codable {
    public static let name = "form.save"
    public static let fieldSummary = ""
    public static let summary = "auto-scroll, on Done"

    public init() {}
}
