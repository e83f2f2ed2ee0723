/// UIKit's `UIAccessibilityTraits`: what an accessibility element is and what state it is in,
/// written in files as a list of UIKit's names (`[button, selected]`), each at most once.
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    // UIKit's bits, so a value reads as UIKit's would.
    public static let button = Self(rawValue: 1 << 0)
    public static let link = Self(rawValue: 1 << 1)
    public static let image = Self(rawValue: 1 << 2)
    public static let selected = Self(rawValue: 1 << 3)
    public static let playsSound = Self(rawValue: 1 << 4)
    public static let keyboardKey = Self(rawValue: 1 << 5)
    public static let staticText = Self(rawValue: 1 << 6)
    public static let summaryElement = Self(rawValue: 1 << 7)
    public static let notEnabled = Self(rawValue: 1 << 8)
    public static let updatesFrequently = Self(rawValue: 1 << 9)
    public static let searchField = Self(rawValue: 1 << 10)
    public static let startsMediaSession = Self(rawValue: 1 << 11)
    public static let adjustable = Self(rawValue: 1 << 12)
    public static let allowsDirectInteraction = Self(rawValue: 1 << 13)
    public static let causesPageTurn = Self(rawValue: 1 << 14)
    public static let tabBar = Self(rawValue: 1 << 15)
    public static let header = Self(rawValue: 1 << 16)

    /// Every trait with its name, in UIKit's bit order: the order a value's names are written in.
    public static let named: [(name: String, trait: Self)] = [
        ("button", .button), ("link", .link), ("image", .image), ("selected", .selected), ("playsSound", .playsSound),
        ("keyboardKey", .keyboardKey), ("staticText", .staticText), ("summaryElement", .summaryElement),
        ("notEnabled", .notEnabled), ("updatesFrequently", .updatesFrequently), ("searchField", .searchField),
        ("startsMediaSession", .startsMediaSession), ("adjustable", .adjustable),
        ("allowsDirectInteraction", .allowsDirectInteraction), ("causesPageTurn", .causesPageTurn), ("tabBar", .tabBar),
        ("header", .header),
    ]

    /// The traits' names, in UIKit's bit order.
    public var names: [String] { Self.named.filter { contains($0.trait) }.map(\.name) }

    /// The traits a node of `kind` has until it is given others, as UIKit's classes start:
    /// a label `staticText`, a button `button`, anything else none.
    public static func defaults(for kind: NodeKind) -> Self {
        switch kind {
        case .label: .staticText
        case .button: .button
        case .view, .textField, .scrollView, .imageView, .shape: []
        }
    }
}

extension AccessibilityTraits: FieldConvertible {
    public static var fieldShape: FieldShape { .list(.choice(named.map(\.name))) }

    /// Reads a list of trait names, each at most once.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        let names = try [String](field: value, path: path)
        self = []
        for (index, name) in names.enumerated() {
            let known = Self.named.map(\.name)
            guard let trait = Self.named.first(where: { $0.name == name })?.trait else {
                throw FieldError(
                    path: "\(path).\(index)",
                    problem: .invalidValue(
                        "must be a trait, found '\(name)'\(Suggestion.hint(for: name, among: known)); traits: \(known.joined(separator: ", "))"
                    ))
            }
            guard !contains(trait) else {
                throw FieldError(path: "\(path).\(index)", problem: .invalidValue("must not list '\(name)' twice"))
            }
            insert(trait)
        }
    }

    public var fieldValue: FieldValue { .array(names.map(FieldValue.string)) }
}
