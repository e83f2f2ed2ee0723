/// One of a scroll view's two axes, with what a scroll view has on it.
enum ScrollAxis: CaseIterable {
    case horizontal, vertical

    /// The component of a point on this axis.
    func of(_ point: Point) -> Double {
        switch self {
        case .horizontal: point.x
        case .vertical: point.y
        }
    }

    /// The scroll view's size on this axis: `d` of the rubber band, and its page size.
    func dimension(of node: Node) -> Double {
        switch self {
        case .horizontal: node.frame.size.width
        case .vertical: node.frame.size.height
        }
    }

    /// The content offsets the scroll view rests within: from minus the leading inset to the
    /// content's size plus the trailing inset less the view's size (never below the start).
    func range(of node: Node) -> ClosedRange<Double> {
        let (leading, trailing, content) = extent(of: node)
        let start = -leading
        return start...max(start, content + trailing - dimension(of: node))
    }

    /// Whether a drag moves the scroll view on this axis: when its content with its insets is
    /// longer than the view, or, as UIScrollView's `alwaysBounceVertical` and
    /// `alwaysBounceHorizontal` say, when that is on for this axis and the view `bounces` (a
    /// shorter content then rubber-bands from its start).
    func scrolls(_ node: Node) -> Bool {
        let (leading, trailing, content) = extent(of: node)
        return content + leading + trailing > dimension(of: node) || (alwaysBounces(node) && node.bounces)
    }

    /// The scroll view's `alwaysBounce` flag for this axis.
    private func alwaysBounces(_ node: Node) -> Bool {
        switch self {
        case .horizontal: node.alwaysBounceHorizontal
        case .vertical: node.alwaysBounceVertical
        }
    }

    /// The axis a movement goes mostly along: horizontal when it goes further across than down
    /// or up, else vertical (a movement exactly diagonal counts as vertical).
    static func mostly(_ movement: Point) -> ScrollAxis {
        abs(movement.x) > abs(movement.y) ? .horizontal : .vertical
    }

    /// The inset before the content, the inset after it, and the content's size on this axis.
    private func extent(of node: Node) -> (leading: Double, trailing: Double, content: Double) {
        switch self {
        case .horizontal: (node.contentInset.left, node.contentInset.right, node.contentSize.width)
        case .vertical: (node.contentInset.top, node.contentInset.bottom, node.contentSize.height)
        }
    }

    /// A point from its two components.
    static func point(_ components: (ScrollAxis) -> Double) -> Point {
        Point(x: components(.horizontal), y: components(.vertical))
    }
}

extension Node {
    /// Whether a drag moves this scroll view across (``ScrollAxis/scrolls(_:)``): its content with
    /// its insets wider than it, or `alwaysBounceHorizontal` on a view that `bounces`.
    public var scrollsHorizontally: Bool { ScrollAxis.horizontal.scrolls(self) }
}
