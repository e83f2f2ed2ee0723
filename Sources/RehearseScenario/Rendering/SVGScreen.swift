import RehearseCore
import RehearseSupport

/// Draws what a snapshot's screen shows, at the origin in screen points: the one drawing of a
/// scene, which stills, filmstrips and the live viewer's frames all use.
enum SVGScreen {
    /// Where the photo pattern marks distances along an image, in points.
    private static let markerSpacing = 250.0
    /// The most characters of a node's text drawn (more than the widest screen shows), then `…`:
    /// a report pictures a scene after each step, and a long text drawn in each picture made
    /// a 1 MiB scenario file a page of gigabytes.
    static let maximumCaptionLength = 500

    /// The screen of `snapshot`; clip ids start with `idPrefix`, so screens can share a document.
    static func draw(_ snapshot: SceneSnapshot, idPrefix: String) -> String {
        let screen = snapshot.screen
        var svg = SVGRenderer.rect(Rect(origin: .zero, size: screen), fill: Colour.screen, stroke: Colour.bezel)
        for (index, item) in snapshot.items.enumerated() where item.id != Scene.rootID {
            svg += draw(item, clipID: item.clip.map { _ in "\(idPrefix)-clip\(index)" }, screenArea: screen.width * screen.height)
        }
        if snapshot.statusBarHeight > 0 {
            svg +=
                #"<rect width="\#(SVGRenderer.number(screen.width))" height="\#(SVGRenderer.number(snapshot.statusBarHeight))" "#
                + #"fill="\#(Colour.statusBar)" opacity="0.8"/>"# + "\n"
        }
        if let keyboard = snapshot.keyboard?.intersection(Rect(origin: .zero, size: screen)) {
            svg += #"<g data-id="keyboard" \#(dataFrame(keyboard))>"# + "\n" + self.keyboard(keyboard) + "</g>\n"
        }
        return svg
    }

    private static func draw(_ item: SceneSnapshot.Item, clipID: String?, screenArea: Double) -> String {
        var body: String
        let frame = item.frame
        let text = item.text.count > maximumCaptionLength ? item.text.prefix(maximumCaptionLength) + "…" : item.text
        let caption = text.isEmpty ? item.id : text
        switch item.kind {
        case .textField:
            body = SVGRenderer.rect(frame, fill: "#fff", stroke: item.isFirstResponder ? "#0a64d8" : "#999", radius: 5)
            body += SVGRenderer.text(
                caption, x: frame.minX + 6, y: frame.midY + 5, size: 13, fill: item.text.isEmpty ? "#aaa" : "#000")
        case .label:
            body = SVGRenderer.text(caption, x: frame.minX, y: frame.midY + 6, size: 17)
        case .button:
            body =
                SVGRenderer.rect(frame, fill: "#e8f0fe", stroke: "#0a64d8", radius: 6)
                + SVGRenderer.text(caption, x: frame.minX + 8, y: frame.midY + 5, size: 14, fill: "#0a64d8")
        case .scrollView:
            body = SVGRenderer.rect(frame, fill: "none", stroke: "#bbb", dashed: true)
        case .imageView:
            body = photo(frame)
        case .shape:
            let length = frame.size.width
            let start = frame.minX + length * item.stroke.lowerBound
            let end = frame.minX + length * item.stroke.upperBound
            body =
                SVGRenderer.line(frame.minX, frame.maxX, y: frame.maxY, colour: "#000", width: 1, opacity: 0.1)
                + SVGRenderer.line(start, end, y: frame.maxY, colour: "#222", width: 2, opacity: 1)
        case .view:
            body = SVGRenderer.rect(frame, fill: "#f4f4f6", stroke: "#ccc")
            // A screen of its own (a gateway's login, home and offline children) says which it is.
            if item.isScreen, frame.size.width * frame.size.height >= screenArea / 2 {
                body += SVGRenderer.text(item.id, x: frame.minX + 8, y: frame.maxY - 10, size: 12, fill: "#777")
            }
        }
        var svg = ""
        var attributes = #" data-id="\#(XMLText.escape(item.id))" \#(dataFrame(frame))"#
        if item.alpha < 1 { attributes += #" opacity="\#(SVGRenderer.number(max(item.alpha, 0)))""# }
        if let clip = item.clip, let clipID {
            svg += "<clipPath id=\"\(clipID)\">\(SVGRenderer.rect(clip, fill: "#000", stroke: "none"))</clipPath>\n"
            attributes += #" clip-path="url(#\#(clipID))""#
        }
        return svg + "<g\(attributes)>\n\(body)</g>\n"
    }

    /// `data-x`, `data-y`, `data-w` and `data-h`: the frame on screen, for tests and tools that read the drawing.
    private static func dataFrame(_ frame: Rect) -> String {
        [("x", frame.minX), ("y", frame.minY), ("w", frame.size.width), ("h", frame.size.height)]
            .map { #"data-\#($0.0)="\#(SVGRenderer.number($0.1))""# }.joined(separator: " ")
    }

    /// A landscape filling `frame`: sky, a mountain ridge across the middle (where a zoomed photo
    /// is first seen), ground, and distance markers every ``markerSpacing`` points along the ridge,
    /// so that panning an image shows which way and how far it moved, whatever its zoom.
    private static func photo(_ frame: Rect) -> String {
        let (x, y, width, height) = (frame.minX, frame.minY, max(frame.size.width, 0), max(frame.size.height, 0))
        let horizon = y + height * 0.55
        var svg = SVGRenderer.rect(Rect(x: x, y: y, width: width, height: horizon - y), fill: "#9cc9f0", stroke: "none")
        svg += SVGRenderer.rect(
            Rect(x: x, y: horizon, width: width, height: y + height - horizon), fill: "#7fae6a", stroke: "none")
        // Peaks every 120 points (at most 64), of a fixed pattern of heights: the same photo every time.
        let heights = [70.0, 110, 55, 120, 85, 100, 45, 95]
        let peaks = max(SVGRenderer.wholeNumber(width / 120, upTo: 64), 2)
        var points = ["\(SVGRenderer.number(x)),\(SVGRenderer.number(horizon))"]
        for index in 0...peaks {
            let px = x + width * Double(index) / Double(peaks)
            points.append("\(SVGRenderer.number(px)),\(SVGRenderer.number(horizon - heights[index % heights.count]))")
        }
        points.append("\(SVGRenderer.number(x + width)),\(SVGRenderer.number(horizon))")
        svg += "<polygon points=\"\(points.joined(separator: " "))\" fill=\"#6c7a89\"/>\n"
        let sun = (x: x + width * 0.62, y: horizon - 150)
        svg += "<circle cx=\"\(SVGRenderer.number(sun.x))\" cy=\"\(SVGRenderer.number(sun.y))\" r=\"24\" fill=\"#ffd45c\"/>\n"
        let markers = SVGRenderer.wholeNumber(width / markerSpacing, upTo: 64)
        for index in 0...max(markers, 0) {
            let mx = x + Double(index) * markerSpacing
            svg += SVGRenderer.line(mx, mx + 2, y: horizon + 12, colour: "#fff", width: 10, opacity: 0.9)
            svg += SVGRenderer.text("\(Int(Double(index) * markerSpacing))", x: mx + 6, y: horizon + 30, size: 14, fill: "#fff")
        }
        return svg + SVGRenderer.rect(frame, fill: "none", stroke: "#5a6b5a")
    }

    /// The system keyboard: three rows of keys and a space bar.
    private static func keyboard(_ frame: Rect) -> String {
        var svg = SVGRenderer.rect(frame, fill: "#d1d4da", stroke: "#8a8f99")
        let gap = 6.0
        let rows = [10, 9, 7]
        let rowHeight = (frame.size.height - gap * 5) / 4
        guard rowHeight > 2 else { return svg }
        let keyWidth = (frame.size.width - gap * 11) / 10
        for (row, count) in rows.enumerated() {
            let rowWidth = Double(count) * keyWidth + Double(count - 1) * gap
            let left = frame.minX + (frame.size.width - rowWidth) / 2
            for key in 0..<count {
                let keyFrame = Rect(
                    x: left + Double(key) * (keyWidth + gap), y: frame.minY + gap + Double(row) * (rowHeight + gap),
                    width: keyWidth, height: rowHeight)
                svg += SVGRenderer.rect(keyFrame, fill: "#fff", stroke: "none", radius: 4)
            }
        }
        let space = Rect(
            x: frame.minX + frame.size.width * 0.25, y: frame.minY + gap + 3 * (rowHeight + gap),
            width: frame.size.width * 0.5, height: rowHeight)
        return svg + SVGRenderer.rect(space, fill: "#fff", stroke: "none", radius: 4)
    }
}
