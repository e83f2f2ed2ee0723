import RehearseCore

/// A gesture frame's fingers (``GestureFrame``), drawn over its screen and said in its title: a
/// finger down is a filled disc with its id, one lifting (since the frame before) a dashed ring
/// with its id. Each is a group with `data-finger` (its id), `data-phase` (`down` or `lifting`),
/// and its point as `data-x` and `data-y`, for tests and tools that read the drawing.
enum SVGFingers {
    /// A finger's radius, in points: half the 44-point touch target Apple's guidelines give a fingertip.
    static let radius = 22.0

    /// The fingers, drawn.
    static func draw(_ fingers: [FingerMark]) -> String {
        fingers.map { finger in
            let (x, y) = (SVGRenderer.number(finger.point.x), SVGRenderer.number(finger.point.y))
            let colour = finger.isLifting ? Colour.fingerLifting : Colour.fingerDown
            let disc = finger.isLifting ? #"fill="none" stroke-dasharray="6 4""# : #"fill="\#(colour)" fill-opacity="0.35""#
            let label = "\(finger.id)"
            return
                #"<g data-finger="\#(finger.id)" data-phase="\#(finger.isLifting ? "lifting" : "down")" data-x="\#(x)" data-y="\#(y)">"#
                + "\n"
                + #"<circle cx="\#(x)" cy="\#(y)" r="\#(SVGRenderer.number(radius))" \#(disc) stroke="\#(colour)" stroke-width="3"/>"#
                + "\n"
                + SVGRenderer.text(
                    label, x: finger.point.x - 4.5 * Double(label.count), y: finger.point.y + 6, size: 16, fill: colour)
                + "</g>\n"
        }.joined()
    }

    /// Where the fingers are, in words: `finger 0 at (160, 350), finger 1 lifting at (210, 284)`,
    /// or `no finger down`.
    static func describe(_ fingers: [FingerMark]) -> String {
        guard !fingers.isEmpty else { return "no finger down" }
        return fingers.map { finger in
            "finger \(finger.id) \(finger.isLifting ? "lifting at" : "at") "
                + "(\(SVGRenderer.number(finger.point.x)), \(SVGRenderer.number(finger.point.y)))"
        }.joined(separator: ", ")
    }
}
