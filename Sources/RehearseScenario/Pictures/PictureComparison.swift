import RehearseCore

/// How a drawing differs from its reference, in words, one line a difference: what moved (frames
/// and clips beyond a tolerance, in points), what changed (kind, text, focus, alpha, stroke), what
/// appeared, what went away, and a changed drawing order.
public struct PictureComparison: Sendable {
    /// How far a frame's numbers may be from the reference's, in points (0.5 unless a step or the run says).
    public var tolerance: Double
    /// The default ``tolerance``: half a point, less than a pixel on any device.
    public static let defaultTolerance = 0.5
    /// How far an alpha or a stroke may be from the reference's.
    public static let fractionTolerance = 0.001

    public init(tolerance: Double = defaultTolerance) {
        self.tolerance = tolerance
    }

    /// The differences between `reference` and `actual`; empty when they match.
    public func differences(from reference: PictureDrawing, to actual: PictureDrawing) -> [String] {
        var lines: [String] = []
        if !close(reference.screen, actual.screen) {
            lines.append("screen: \(text(reference.screen)) in the reference, \(text(actual.screen)) now")
        }
        if !close([reference.statusBar], [actual.statusBar]) {
            lines.append("status bar: \(text([reference.statusBar])) high in the reference, \(text([actual.statusBar])) now")
        }
        lines += optionalFrame("keyboard", reference.keyboard, actual.keyboard)
        let before = Dictionary(reference.elements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(actual.elements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for element in reference.elements where now[element.id] == nil {
            lines.append("\(element.id): went away (was a \(element.kind.rawValue) at \(text(element.frame)))")
        }
        for element in actual.elements {
            guard let old = before[element.id] else {
                lines.append("\(element.id): appeared (a \(element.kind.rawValue) at \(text(element.frame)))")
                continue
            }
            lines += changes(old, element)
        }
        let kept = Set(before.keys).intersection(now.keys)
        let oldOrder = reference.elements.map(\.id).filter(kept.contains)
        let newOrder = actual.elements.map(\.id).filter(kept.contains)
        if oldOrder != newOrder {
            lines.append(
                "drawing order: \(oldOrder.joined(separator: ", ")) in the reference, \(newOrder.joined(separator: ", ")) now")
        }
        return lines
    }

    private func changes(_ old: PictureDrawing.Element, _ new: PictureDrawing.Element) -> [String] {
        var lines: [String] = []
        let id = new.id
        if old.kind != new.kind { lines.append("\(id): a \(old.kind.rawValue) in the reference, a \(new.kind.rawValue) now") }
        if !close(old.frame, new.frame) {
            lines.append(
                "\(id): frame \(text(old.frame)) in the reference, \(text(new.frame)) now (beyond \(text([tolerance])) pt)")
        }
        if old.text != new.text {
            lines.append(
                "\(id): text \(FieldValue.string(old.text).jsonText) in the reference, \(FieldValue.string(new.text).jsonText) now"
            )
        }
        if old.focused != new.focused {
            lines.append(
                "\(id): \(new.focused ? "first responder now, not in the reference" : "first responder in the reference, not now")"
            )
        }
        if !close([old.alpha], [new.alpha], within: Self.fractionTolerance) {
            lines.append("\(id): alpha \(text([old.alpha])) in the reference, \(text([new.alpha])) now")
        }
        lines += optionalFrame("\(id): clip", old.clip, new.clip)
        if !close(old.stroke ?? [], new.stroke ?? [], within: Self.fractionTolerance) {
            lines.append("\(id): stroke \(text(old.stroke ?? [])) in the reference, \(text(new.stroke ?? [])) now")
        }
        return lines
    }

    private func optionalFrame(_ subject: String, _ old: [Double]?, _ new: [Double]?) -> [String] {
        switch (old, new) {
        case (nil, nil): []
        case (let old?, nil): ["\(subject): \(text(old)) in the reference, none now"]
        case (nil, let new?): ["\(subject): none in the reference, \(text(new)) now"]
        case (let old?, let new?): close(old, new) ? [] : ["\(subject): \(text(old)) in the reference, \(text(new)) now"]
        }
    }

    private func close(_ a: [Double], _ b: [Double], within limit: Double? = nil) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= (limit ?? tolerance) || ($0.isNaN && $1.isNaN) || $0 == $1 }
    }

    private func text(_ numbers: [Double]) -> String {
        numbers.count == 1 ? numbers[0].shortDescription : "[" + numbers.map(\.shortDescription).joined(separator: ", ") + "]"
    }
}
