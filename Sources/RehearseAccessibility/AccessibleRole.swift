import RehearseCore

/// The AT-SPI roles Rehearse gives, with their numbers and names in `AtspiRole`
/// (at-spi2-core's `atspi/atspi-constants.h`; pyatspi's `ROLE_*` have the same numbers).
package enum AccessibleRole: UInt32, Sendable, CaseIterable {
    case filler = 20
    case frame = 23
    case image = 27
    case label = 29
    case panel = 39
    case passwordText = 40
    case pushButton = 43
    case scrollPane = 49
    case text = 61
    case application = 75
    case heading = 83

    /// The role's name as `GetRoleName` gives it (at-spi2-core's role names).
    package var name: String {
        switch self {
        case .filler: "filler"
        case .frame: "frame"
        case .image: "image"
        case .label: "label"
        case .panel: "panel"
        case .passwordText: "password text"
        case .pushButton: "push button"
        case .scrollPane: "scroll pane"
        case .text: "text"
        case .application: "application"
        case .heading: "heading"
        }
    }

    /// A node's role, from its traits first (a button, a header, an image as VoiceOver reads them)
    /// and then its kind; the scene's root is the frame.
    package init(of node: Node) {
        let traits = node.accessibilityTraits
        if node.id == Scene.rootID {
            self = .frame
        } else if node.kind.isTextInput {
            self = node.secure ? .passwordText : .text
        } else if node.kind == .button || traits.contains(.button) {
            self = .pushButton
        } else if traits.contains(.header) {
            self = .heading
        } else if node.kind == .imageView || traits.contains(.image) {
            self = .image
        } else {
            switch node.kind {
            case .label: self = .label
            case .scrollView: self = .scrollPane
            case .shape: self = .filler
            case .view, .textField, .button, .imageView: self = .panel
            }
        }
    }
}

/// The AT-SPI states Rehearse gives, by their numbers in `AtspiStateType` (at-spi2-core's
/// `atspi/atspi-constants.h`); `GetState` sends them as a bit set in two 32-bit words.
package enum AccessibleState: UInt32, Sendable, CaseIterable {
    case editable = 7
    case enabled = 8
    case focusable = 11
    case focused = 12
    case selected = 23
    case sensitive = 24
    case showing = 25
    case singleLine = 26
    case visible = 30

    /// `states` as `GetState`'s two words: bit `n % 32` of word `n / 32` for state `n`.
    package static func words(_ states: Set<AccessibleState>) -> [UInt32] {
        var words: [UInt32] = [0, 0]
        for state in states { words[Int(state.rawValue / 32)] |= 1 << (state.rawValue % 32) }
        return words
    }
}
