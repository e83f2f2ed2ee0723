import RehearseCore
import RehearseSupport

/// A golden picture that did not match: what a report and `--render` show of it.
public struct PictureMismatch: Sendable {
    /// The step's picture name.
    public var name: String
    /// The recorded drawing, if there was a readable one.
    public var reference: PictureDrawing?
    /// The scene as it was drawn at the step.
    public var actual: SceneSnapshot
    public var tolerance: Double
}

/// The diff picture of a ``PictureMismatch``: the scene as drawn now, with what differs outlined
/// over it, in colours a legend names: where an element was in the reference (dashed) and is now
/// (solid), what appeared, and what went away.
enum PictureDiffSVG {
    private static let legendHeight = 64.0

    static func document(_ mismatch: PictureMismatch, idPrefix: String) -> String {
        let actual = PictureDrawing(mismatch.actual)
        let screen = mismatch.actual.screen
        let before = Dictionary((mismatch.reference?.elements ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(actual.elements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let comparison = PictureComparison(tolerance: mismatch.tolerance)
        var overlay = ""
        for element in mismatch.reference?.elements ?? [] where now[element.id] == nil {
            overlay += outline(element.frame, colour: Colour.wentAway, dashed: true, id: element.id)
        }
        for element in actual.elements {
            guard let old = before[element.id] else {
                overlay += outline(element.frame, colour: Colour.appeared, dashed: false, id: element.id)
                continue
            }
            guard !comparison.differences(from: drawing(with: old), to: drawing(with: element)).isEmpty else { continue }
            overlay += outline(old.frame, colour: Colour.changed, dashed: true, id: element.id)
            overlay += outline(element.frame, colour: Colour.changed, dashed: false, id: element.id)
        }
        let width = screen.width
        let height = screen.height + legendHeight
        return
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(SVGRenderer.number(width))" height="\#(SVGRenderer.number(height))" "#
            + #"viewBox="0 0 \#(SVGRenderer.number(width)) \#(SVGRenderer.number(height))" font-family="sans-serif">"# + "\n"
            + SVGScreen.draw(mismatch.actual, idPrefix: idPrefix) + #"<g data-diff="overlay">"# + "\n" + overlay + "</g>\n"
            + legend(top: screen.height, hasReference: mismatch.reference != nil) + "</svg>\n"
    }

    /// A drawing of one element, so that one element's differences can be asked for.
    private static func drawing(with element: PictureDrawing.Element) -> PictureDrawing {
        var drawing = PictureDrawing.empty
        drawing.elements = [element]
        return drawing
    }

    private static func outline(_ frame: [Double], colour: String, dashed: Bool, id: String) -> String {
        guard frame.count == 4 else { return "" }
        let rect = Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3])
        return #"<g data-diff-id="\#(XMLText.escape(id))">"#
            + SVGRenderer.rect(rect, fill: "none", stroke: colour, dashed: dashed, strokeWidth: 2)
            + "</g>\n"
    }

    private static func legend(top: Double, hasReference: Bool) -> String {
        let lines =
            hasReference
            ? [
                (Colour.changed, "changed: dashed where it was, solid where it is"), (Colour.appeared, "appeared"),
                (Colour.wentAway, "went away (dashed)"),
            ]
            : [(Colour.wentAway, "no reference recorded: the scene as drawn now")]
        return lines.enumerated().map { index, line in
            SVGRenderer.text(line.1, x: 8, y: top + 18 + Double(index) * 18, size: 12, fill: line.0)
        }.joined()
    }
}
