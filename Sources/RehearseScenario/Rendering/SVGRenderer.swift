import RehearseCore
import RehearseSupport

/// Draws scene snapshots, filmstrips and plots as SVG.
public enum SVGRenderer {
    private static let filmstripGap = 16.0
    private static let labelHeight = 18.0

    /// One snapshot as a standalone SVG document.
    public static func document(_ snapshot: SceneSnapshot) -> String {
        let width = snapshot.screen.width
        let height = snapshot.screen.height + labelHeight
        return header(width: width, height: height) + frame(snapshot, x: 0) + "</svg>\n"
    }

    /// Snapshots side by side, each labelled with its time (and titled with it, its accessible name).
    public static func filmstrip(_ snapshots: [SceneSnapshot]) -> String {
        strip(snapshots.map { ($0, nil) }, idPrefix: "f")
    }

    /// A gesture step's frames side by side, as ``filmstrip(_:)`` draws snapshots, each with its
    /// fingers drawn over it (``SVGFingers``) and titled with its time and where they are; clip ids
    /// start with `idPrefix`, so that strips can share a page.
    public static func filmstrip(_ frames: [GestureFrame], idPrefix: String) -> String {
        strip(frames.map { ($0.picture, $0.fingers) }, idPrefix: idPrefix)
    }

    private static func strip(_ frames: [(snapshot: SceneSnapshot, fingers: [FingerMark]?)], idPrefix: String) -> String {
        let width = frames.reduce(0) { $0 + $1.snapshot.screen.width + filmstripGap }
        let height = (frames.map(\.snapshot.screen.height).max() ?? 0) + labelHeight
        var svg = header(width: max(width - filmstripGap, 1), height: height)
        var x = 0.0
        for (snapshot, fingers) in frames {
            svg += frame(snapshot, fingers: fingers, x: x, idPrefix: idPrefix)
            x += snapshot.screen.width + filmstripGap
        }
        return svg + "</svg>\n"
    }

    /// A golden picture that did not match: the scene as drawn, with what differs outlined; its
    /// clip ids start with `idPrefix`, as ``screen(_:idPrefix:)``'s.
    public static func diff(_ mismatch: PictureMismatch, idPrefix: String = "d") -> String {
        PictureDiffSVG.document(mismatch, idPrefix: idPrefix)
    }

    /// Line plots of sampled series, one panel per series, time on the horizontal axis.
    public static func plot(_ series: [PlotSeries]) -> String {
        let panelWidth = 640.0
        let panelHeight = 180.0
        let margin = 48.0
        var svg = header(width: panelWidth + 2 * margin, height: Double(series.count) * (panelHeight + margin) + margin)
        for (index, line) in series.enumerated() {
            let top = margin + Double(index) * (panelHeight + margin)
            let points = line.samples.compactMap { sample in sample.value.map { (sample.time.seconds, $0) } }
            let times = points.map(\.0)
            let values = points.map(\.1)
            let (t0, t1) = (times.min() ?? 0, max(times.max() ?? 1, (times.min() ?? 0) + 1e-9))
            var (v0, v1) = (values.min() ?? 0, values.max() ?? 1)
            if v1 - v0 < 1e-9 { (v0, v1) = (v0 - 1, v1 + 1) }
            func x(_ t: Double) -> Double { margin + (t - t0) / (t1 - t0) * panelWidth }
            func y(_ v: Double) -> Double { top + panelHeight - (v - v0) / (v1 - v0) * panelHeight }
            svg +=
                #"<rect x="\#(margin)" y="\#(top)" width="\#(panelWidth)" height="\#(panelHeight)" fill="none" stroke="\#(Colour.frame)"/>"#
                + "\n"
            svg += text(line.path, x: margin, y: top - 6, size: 13)
            svg += text(number(v1), x: 4, y: top + 10, size: 10) + text(number(v0), x: 4, y: top + panelHeight, size: 10)
            svg += text("\(number(t0)) s", x: margin, y: top + panelHeight + 14, size: 10)
            svg += text("\(number(t1)) s", x: margin + panelWidth - 40, y: top + panelHeight + 14, size: 10)
            let polyline = points.map { "\(number(x($0.0))),\(number(y($0.1)))" }.joined(separator: " ")
            svg += #"<polyline points="\#(polyline)" fill="none" stroke="\#(Colour.accent)" stroke-width="1.5"/>"# + "\n"
        }
        return svg + "</svg>\n"
    }

    private static func header(width: Double, height: Double) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(number(width))" height="\#(number(height))" "#
            + #"viewBox="0 0 \#(number(width)) \#(number(height))" font-family="sans-serif">"# + "\n"
    }

    /// One snapshot's screen alone, in screen points (the live viewer's frame): every node is a
    /// group with `data-id` and its on-screen frame as `data-x`, `data-y`, `data-w` and `data-h`.
    /// Its clip ids start with `idPrefix`: a page that holds several pictures gives each its own,
    /// since an id is the page's, and `url(#id)` takes the first element of that id.
    public static func screen(_ snapshot: SceneSnapshot, idPrefix: String = "s") -> String {
        header(width: snapshot.screen.width, height: snapshot.screen.height) + SVGScreen.draw(snapshot, idPrefix: idPrefix)
            + "</svg>\n"
    }

    /// A document's picture at `x`: its time above it, and `fingers` (a gesture frame's) over it.
    private static func frame(_ snapshot: SceneSnapshot, fingers: [FingerMark]? = nil, x: Double, idPrefix: String = "f")
        -> String
    {
        let time = "t = \(snapshot.time) s"
        let title = fingers.map { "\(time): \(SVGFingers.describe($0))" } ?? time
        return #"<g transform="translate(\#(number(x)),\#(labelHeight))">"# + "\n"
            + "<title>\(XMLText.escape(title))</title>\n" + text(time, x: 0, y: -5, size: 12)
            + SVGScreen.draw(snapshot, idPrefix: "\(idPrefix)\(wholeNumber(x, upTo: Int(Int32.max)))")
            + (fingers.map(SVGFingers.draw) ?? "") + "</g>\n"
    }

    /// `value` rounded down to a whole number from 0 to `limit` (0 for NaN and below), for counts and
    /// ids taken from geometry, which a scene or a plugin may make as large as a `Double` goes.
    static func wholeNumber(_ value: Double, upTo limit: Int) -> Int {
        guard value > 0 else { return 0 }
        return value < Double(limit) ? Int(value) : limit
    }

    static func rect(
        _ frame: Rect, fill: String, stroke: String, radius: Double = 0, dashed: Bool = false,
        strokeWidth: Double? = nil
    ) -> String {
        #"<rect x="\#(number(frame.minX))" y="\#(number(frame.minY))" width="\#(number(max(frame.size.width, 0)))" "#
            + #"height="\#(number(max(frame.size.height, 0)))" rx="\#(number(radius))" fill="\#(fill)" stroke="\#(stroke)""#
            + (dashed ? #" stroke-dasharray="4 3""# : "") + (strokeWidth.map { #" stroke-width="\#(number($0))""# } ?? "")
            + "/>\n"
    }

    static func line(_ x1: Double, _ x2: Double, y: Double, colour: String, width: Double, opacity: Double) -> String {
        #"<line x1="\#(number(x1))" y1="\#(number(y))" x2="\#(number(x2))" y2="\#(number(y))" stroke="\#(colour)" "#
            + #"stroke-width="\#(number(width))" opacity="\#(number(opacity))"/>"# + "\n"
    }

    static func text(_ content: String, x: Double, y: Double, size: Double, fill: String = "#000") -> String {
        #"<text x="\#(number(x))" y="\#(number(y))" font-size="\#(number(size))" fill="\#(fill)">\#(XMLText.escape(content))</text>"#
            + "\n"
    }

    /// Numbers with at most two decimals, so that equal scenes give equal files.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return ((value * 100).rounded() / 100).shortDescription
    }
}

/// The colours drawn with, named so that raw strings never hold `"#`.
enum Colour {
    static let frame = "#999"
    static let accent = "#0a64d8"
    static let screen = "#fff"
    static let bezel = "#333"
    static let statusBar = "#000"
    /// A golden picture's diff: changed, appeared, went away.
    static let changed = "#d93025"
    static let appeared = "#188038"
    static let wentAway = "#e37400"
    /// A gesture frame's finger: down, lifting.
    static let fingerDown = "#0a64d8"
    static let fingerLifting = "#c5221f"
}

/// A path's values over time.
public struct PlotSeries: Sendable {
    public var path: String
    /// `nil` where the path had no numeric value.
    public var samples: [(time: VirtualTime, value: Double?)]
}
