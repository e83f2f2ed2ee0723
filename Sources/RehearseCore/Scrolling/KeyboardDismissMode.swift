/// `UIScrollView.KeyboardDismissMode`: what dragging a scroll view does to the keyboard.
public enum KeyboardDismissMode: String, CaseIterable, Sendable, Codable {
    /// The keyboard stays.
    case none
    /// A drag that begins on the scroll view ends editing, so the keyboard hides as usual.
    case onDrag
    /// The keyboard follows a finger dragged below its top, then hides or returns on release by
    /// the finger's direction (or, with no velocity, by whether it was pulled more than halfway).
    case interactive
}
