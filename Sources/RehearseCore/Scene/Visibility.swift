/// Whether a node is on screen now and, if not, why: Rehearse's `isHittable` / `assertVisible`.
///
/// A node is visible when, with presentation values (what is on screen now):
/// - neither it nor an ancestor is hidden;
/// - its alpha times its ancestors' is above ``minimumAlpha``;
/// - its frame on screen, cut by every ancestor that clips (a scroll view, which clips as
///   `UIScrollView`'s `clipsToBounds` does by default; a plain view does not), by the screen's bounds
///   in the current orientation and by the keyboard's frame now, leaves at least
///   ``minimumVisibleSide`` × ``minimumVisibleSide`` points (a partly clipped or covered node is
///   visible, as Maestro's `assertVisible` counts it).
///
/// Other nodes drawn over it do not count: only the keyboard covers.
public struct Visibility: Equatable, Sendable {
    /// Alpha at or below this (the node's times its ancestors') is not visible, as UIKit's hit
    /// testing skips views below 0.01.
    public static let minimumAlpha = 0.01
    /// The least width and height, in points, of what remains visible.
    public static let minimumVisibleSide = 1.0

    /// The node.
    public var node: String
    /// Its frame on screen now; `nil` for a node the scene does not have.
    public var frame: Rect?
    /// The part of ``frame`` that is visible; `nil` when ``problem`` says why none is.
    public var visibleRect: Rect?
    /// Why the node is not visible, or `nil` when it is.
    public var problem: Problem?

    /// A distance in points as messages give it, to a tenth of a point.
    public static func points(_ distance: Double) -> String {
        ((distance * 10).rounded() / 10).shortDescription
    }

    /// Whether the node is visible (some of it, at least 1 × 1 point).
    public var isVisible: Bool { problem == nil }

    /// Whether `rect` is at least ``minimumVisibleSide`` × ``minimumVisibleSide`` points.
    static func isLargeEnough(_ rect: Rect) -> Bool {
        rect.size.width >= minimumVisibleSide && rect.size.height >= minimumVisibleSide
    }

    /// `rect` cut by `bounds`, or nil when less than ``minimumVisibleSide`` × ``minimumVisibleSide`` points remain.
    static func cut(_ rect: Rect, by bounds: Rect) -> Rect? {
        rect.intersection(bounds).flatMap { isLargeEnough($0) ? $0 : nil }
    }

    /// How much of the node's area is visible, from 0 to 1.
    public var visibleFraction: Double {
        guard let frame, let visibleRect, frame.size.width * frame.size.height > 0 else { return 0 }
        return (visibleRect.size.width * visibleRect.size.height) / (frame.size.width * frame.size.height)
    }

    /// "W × H pt of it at (x, y), 40 %": the visible part of a visible node ("none of it" otherwise).
    public var visiblePart: String {
        guard let part = visibleRect else { return "none of it" }
        return "\(part.size.width.shortDescription) × \(part.size.height.shortDescription) pt of it at "
            + "(\(part.minX.shortDescription), \(part.minY.shortDescription)), \((visibleFraction * 100).rounded().shortDescription) %"
    }

    /// Whether all of the node is visible (what `scroll-until-visible` waits for).
    public var isFullyVisible: Bool { isVisible && visibleFraction >= 1 - 1e-9 }

    /// Why a node is not visible.
    public enum Problem: Equatable, Sendable {
        case notInScene
        /// Hidden itself (`by` nil) or by its ancestor `by`.
        case hidden(by: String?)
        /// Its alpha times its ancestors' is `alpha`; `lowest` has the lowest alpha among them (`nil`: itself).
        case transparent(alpha: Double, lowest: String?)
        /// Its frame is narrower or shorter than ``Visibility/minimumVisibleSide``.
        case tooSmall(Size)
        /// Clipped away by the scroll view `by`.
        case clipped(by: String, Placement)
        /// Outside the screen's bounds.
        case offScreen(Placement)
        /// Behind the keyboard.
        case coveredByKeyboard

        /// Whether the node could become visible by moving (scrolled into view, out from behind
        /// the keyboard): not when it is hidden, transparent, too small or gone.
        public var dependsOnPosition: Bool {
            switch self {
            case .clipped, .offScreen, .coveredByKeyboard: true
            case .notInScene, .hidden, .transparent, .tooSmall: false
            }
        }
    }

    /// Where a rectangle lies against the bounds that cut it away.
    public enum Placement: Equatable, Sendable {
        case above(Double)
        case below(Double)
        case left(Double)
        case right(Double)
        /// Inside, but what remains is less than 1 × 1 point.
        case sliver(Size)

        /// Where `rect` lies against `bounds` it does not overlap by 1 × 1 point: on the side of the widest gap.
        static func of(_ rect: Rect, against bounds: Rect) -> Placement {
            let gaps: [Placement] = [
                .above(bounds.minY - rect.maxY), .below(rect.minY - bounds.maxY),
                .left(bounds.minX - rect.maxX), .right(rect.minX - bounds.maxX),
            ]
            let widest = gaps.max { $0.distance < $1.distance } ?? .sliver(.zero)
            guard widest.distance >= 0 else {
                let overlap = rect.intersection(bounds)?.size ?? .zero
                return .sliver(overlap)
            }
            return widest
        }

        /// How far outside, in points (negative for a sliver).
        public var distance: Double {
            switch self {
            case .above(let distance), .below(let distance), .left(let distance), .right(let distance): distance
            case .sliver: -1
            }
        }

        /// "its frame starts 120 pt below `bounds`" (distances to a tenth of a point).
        func describe(_ bounds: String) -> String {
            switch self {
            case .above(let distance): "its frame ends \(Visibility.points(distance)) pt above \(bounds)"
            case .below(let distance): "its frame starts \(Visibility.points(distance)) pt below \(bounds)"
            case .left(let distance): "its frame ends \(Visibility.points(distance)) pt left of \(bounds)"
            case .right(let distance): "its frame starts \(Visibility.points(distance)) pt right of \(bounds)"
            case .sliver(let size):
                "only \(Visibility.points(size.width)) × \(Visibility.points(size.height)) pt of it is inside \(bounds)"
            }
        }
    }
}

extension Visibility.Problem: CustomStringConvertible {
    /// "hidden by its ancestor form", "clipped away by list (its frame starts 120 pt below list's visible bounds)".
    public var description: String {
        switch self {
        case .notInScene: "not in the scene"
        case .hidden(nil): "hidden"
        case .hidden(let ancestor?): "hidden by its ancestor \(ancestor)"
        case .transparent(let alpha, let lowest):
            "transparent (alpha \(alpha.shortDescription) with its ancestors'"
                + (lowest.map { "; \($0)'s is the lowest" } ?? "")
                + ", at most \(Visibility.minimumAlpha.shortDescription) is not visible)"
        case .tooSmall(let size):
            "smaller than \(Visibility.minimumVisibleSide.shortDescription) × \(Visibility.minimumVisibleSide.shortDescription) pt "
                + "(\(size.width.shortDescription) × \(size.height.shortDescription))"
        case .clipped(let by, let placement): "clipped away by \(by) (\(placement.describe("\(by)'s visible bounds")))"
        case .offScreen(let placement): "off screen (\(placement.describe("the screen")))"
        case .coveredByKeyboard: "covered by the keyboard"
        }
    }
}

extension Simulation {
    /// Whether the node `id` is visible now, and its visible part (see ``Visibility``).
    public func visibility(of id: String) -> Visibility {
        guard let node = scene[id], let frame = presentationFrameInScreen(id) else {
            return Visibility(node: id, frame: nil, visibleRect: nil, problem: .notInScene)
        }
        func result(_ visible: Rect?, _ problem: Visibility.Problem?) -> Visibility {
            Visibility(node: id, frame: frame, visibleRect: visible, problem: problem)
        }
        let ancestors = scene.ancestors(of: id)
        if node.hidden { return result(nil, .hidden(by: nil)) }
        if let hider = ancestors.first(where: { scene[$0]?.hidden == true }) { return result(nil, .hidden(by: hider)) }
        let alphas = ([id] + ancestors).map { ($0, presentationValue(.alpha, of: $0)[0]) }
        let alpha = alphas.reduce(1) { $0 * $1.1 }
        if alpha <= Visibility.minimumAlpha {
            let lowest = alphas.min { $0.1 < $1.1 }?.0
            return result(nil, .transparent(alpha: alpha, lowest: lowest == id ? nil : lowest))
        }
        guard Visibility.isLargeEnough(frame) else { return result(nil, .tooSmall(frame.size)) }
        var visible = frame
        for ancestor in ancestors where scene[ancestor]?.kind == .scrollView {
            guard let bounds = presentationFrameInScreen(ancestor) else { continue }
            guard let remaining = Visibility.cut(visible, by: bounds) else {
                return result(nil, .clipped(by: ancestor, .of(visible, against: bounds)))
            }
            visible = remaining
        }
        guard let onScreen = Visibility.cut(visible, by: scene.bounds) else {
            return result(nil, .offScreen(.of(visible, against: scene.bounds)))
        }
        guard let uncovered = uncoveredByKeyboard(onScreen) else { return result(nil, .coveredByKeyboard) }
        return result(uncovered, nil)
    }

    /// What the keyboard leaves of `visible` (a part of the screen): all of it when the keyboard
    /// is not over it, else the largest of the parts above, below, left and right of the keyboard
    /// that is at least 1 × 1 point; nil when none is.
    func uncoveredByKeyboard(_ visible: Rect) -> Rect? {
        guard let keyboard = keyboard.presentationFrame.intersection(scene.bounds), visible.intersection(keyboard) != nil else {
            return visible
        }
        let parts = [
            Rect(x: visible.minX, y: visible.minY, width: visible.size.width, height: keyboard.minY - visible.minY),
            Rect(x: visible.minX, y: keyboard.maxY, width: visible.size.width, height: visible.maxY - keyboard.maxY),
            Rect(x: visible.minX, y: visible.minY, width: keyboard.minX - visible.minX, height: visible.size.height),
            Rect(x: keyboard.maxX, y: visible.minY, width: visible.maxX - keyboard.maxX, height: visible.size.height),
        ]
        return parts.compactMap { Visibility.cut(visible, by: $0) }.max {
            $0.size.width * $0.size.height < $1.size.width * $1.size.height
        }
    }

    /// The node's frame in screen coordinates from presentation values (its own and its
    /// ancestors' frames and scroll positions on screen now).
    public func presentationFrameInScreen(_ id: String) -> Rect? {
        guard scene.contains(id) else { return nil }
        var frame = Rect(presentationValue(.frame, of: id))
        for ancestor in scene.ancestors(of: id) {
            let origin = Rect(presentationValue(.frame, of: ancestor)).origin
            let offset = scene[ancestor]?.kind == .scrollView ? Point(presentationValue(.contentOffset, of: ancestor)) : .zero
            frame.origin.x += origin.x - offset.x
            frame.origin.y += origin.y - offset.y
        }
        return frame
    }

    func presentationValue(_ property: AnimatableProperty, of id: String) -> SIMD4<Double> {
        animator.presentationValue(of: property, of: id) ?? scene[id]?[property] ?? .zero
    }
}
