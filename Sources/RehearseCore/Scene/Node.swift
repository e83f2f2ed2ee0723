/// One view (or layer) of a scene, with the model values of its properties.
public struct Node: Hashable, Sendable {
    /// The id paths and events use; unique in the scene.
    public let id: String
    public var kind: NodeKind
    /// The parent's id; `nil` only for the root.
    public internal(set) var parent: String?
    /// Children in drawing order: the last is on top.
    public internal(set) var children: [String] = []

    public var frame: Rect
    public var hidden = false
    public var alpha = 1.0

    /// Text input state.
    public var text = ""
    /// A password field: its text never leaves the field.
    public var secure = false
    public var returnKey = ReturnKey.default
    public var tag = 0
    public var enablesReturnKeyAutomatically = false

    /// Scroll state. The bounds origin of a scroll view is its content offset.
    public var contentOffset = Point.zero
    public var contentSize = Size.zero
    public var contentInset = EdgeInsets.zero
    public var scrollIndicatorInsets = EdgeInsets.zero
    public var zoomScale = 1.0
    /// The smallest and largest `zoomScale` a pinch takes a scroll view to (UIKit's
    /// `minimumZoomScale` and `maximumZoomScale`, both 1 by default): it zooms only when the
    /// largest is above the smallest (``Zooming``).
    public var minimumZoomScale = 1.0
    public var maximumZoomScale = 1.0
    /// Whether a pinch takes the scale past its limits and it springs back (UIKit's default: true).
    public var bouncesZoom = true
    /// The child a scroll view zooms (what its delegate's `viewForZooming(in:)` returns); none by default.
    public var viewForZooming: String?
    /// How fast a flung scroll view slows down (`normal`, UIKit's default).
    public var decelerationRate = DecelerationRate.normal
    /// Whether a finger can drag a scroll view (UIKit's `isScrollEnabled`, default true); one that
    /// cannot lets the touches go to its content's gestures.
    public var scrollEnabled = true
    /// Whether a scroll view goes past its content's edge and springs back (UIKit's default: true).
    public var bounces = true
    /// Whether a scroll view settles on multiples of its own size.
    public var pagingEnabled = false
    /// What dragging a scroll view does to the keyboard.
    public var keyboardDismissMode = KeyboardDismissMode.none
    /// Whether a drag begun along one axis moves the scroll view along that axis only (UIKit's
    /// `isDirectionalLockEnabled`, default false; ``NestedScrolling/lockedAxis(of:translation:)``).
    public var directionalLockEnabled = false
    /// Whether a scroll view whose content is no taller than itself still drags and rubber-bands
    /// vertically when it `bounces` (UIKit's `alwaysBounceVertical`, default false).
    public var alwaysBounceVertical = false
    /// The same across (UIKit's `alwaysBounceHorizontal`, default false).
    public var alwaysBounceHorizontal = false
    /// Whether a tap on the status bar scrolls the scroll view to its top, when it is the one on
    /// screen that has it (UIKit's `scrollsToTop`, default true; ``ScrollViewService``).
    public var scrollsToTop = true

    /// Shape-layer stroke state.
    public var strokeStart = 0.0
    public var strokeEnd = 1.0

    /// What VoiceOver reads for the node (UIKit's `accessibilityLabel`); `nil` until given one.
    /// Unlike UIKit's getter it is never derived from the text.
    public var accessibilityLabel: String?
    /// What the node is and what state it is in, for accessibility (UIKit's `accessibilityTraits`);
    /// starts as its kind's (``AccessibilityTraits/defaults(for:)``).
    public var accessibilityTraits: AccessibilityTraits
    /// Whether assistive technologies see the node as one element (UIKit's
    /// `isAccessibilityElement`): true for labels, buttons and text fields, as UIKit starts them.
    public var isAccessibilityElement: Bool

    /// Creates a node that is not yet in a scene.
    public init(id: String, kind: NodeKind, frame: Rect) {
        self.id = id
        self.kind = kind
        self.frame = frame
        accessibilityTraits = .defaults(for: kind)
        isAccessibilityElement = kind.isAccessibilityElement
    }

    /// The origin of the node's own coordinate space (its content offset for a scroll view).
    public var boundsOrigin: Point { Self.boundsOrigin(kind: kind, contentOffset: contentOffset) }

    /// The origin of the coordinate space of a node of `kind` scrolled to `contentOffset`: what
    /// ``boundsOrigin`` is, for a reader that takes the two fields in place without copying the
    /// node out (a hit test over 1,000 rows).
    @inline(__always)
    static func boundsOrigin(kind: NodeKind, contentOffset: Point) -> Point { kind == .scrollView ? contentOffset : .zero }

    /// The model value of an animatable property.
    public subscript(property: AnimatableProperty) -> SIMD4<Double> {
        // Inlined, so that a read in place (`storage[slot][property]`) projects the one field
        // instead of copying the whole node out first.
        @inline(__always) get {
            switch property {
            case .frame: frame.vector
            case .alpha: SIMD4(alpha, 0, 0, 0)
            case .contentOffset: contentOffset.vector
            case .contentSize: contentSize.vector
            case .contentInset: contentInset.vector
            case .scrollIndicatorInsets: scrollIndicatorInsets.vector
            case .zoomScale: SIMD4(zoomScale, 0, 0, 0)
            case .strokeStart: SIMD4(strokeStart, 0, 0, 0)
            case .strokeEnd: SIMD4(strokeEnd, 0, 0, 0)
            }
        }
        set {
            switch property {
            case .frame: frame = Rect(newValue)
            case .alpha: alpha = newValue[0]
            case .contentOffset: contentOffset = Point(newValue)
            case .contentSize: contentSize = Size(newValue)
            case .contentInset: contentInset = EdgeInsets(newValue)
            case .scrollIndicatorInsets: scrollIndicatorInsets = EdgeInsets(newValue)
            case .zoomScale: zoomScale = newValue[0]
            case .strokeStart: strokeStart = newValue[0]
            case .strokeEnd: strokeEnd = newValue[0]
            }
        }
    }
}
