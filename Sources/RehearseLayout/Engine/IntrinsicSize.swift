import RehearseCore

/// The content size a view asks for when nothing else decides (Auto Layout's intrinsic content
/// size). Without font metrics these are estimates of the 17-point system font, documented so
/// tests can rely on them:
/// - label: 9 points per character wide, 21 high (the font's 20.3-point line height, rounded up);
///   an empty label is 0 × 0;
/// - text field: 30 high (a rounded-rect `UITextField`), no intrinsic width;
/// - button: 9 points per character plus 12 wide, 30 high.
enum IntrinsicSize {
    static let characterWidth = 9.0

    /// Width and height, `nil` where the kind has none.
    static func of(_ node: Node) -> (width: Double?, height: Double?) {
        let characters = Double(node.text.count)
        switch node.kind {
        case .label: return node.text.isEmpty ? (0, 0) : (characters * characterWidth, 21)
        case .textField: return (nil, 30)
        case .button: return (characters * characterWidth + 12, 30)
        case .view, .scrollView, .imageView, .shape: return (nil, nil)
        }
    }

    /// Content hugging (250, medium) and compression resistance (750, strong), as UIKit's defaults.
    static let huggingPriority = 250.0
    static let compressionResistancePriority = 750.0
}
