import RehearseCore

/// Paper's tilting photo panner (subjc/SubjectiveCPhotoPanner, `SCImagePanViewController.m`): a
/// wide photo zoomed to fill the screen's height pans as the device turns about its vertical axis,
/// and a scroll bar kept in step by the display link shows where the screen is in the photo.
///
/// Defaults reproduce the original: zoom = (boundsH / boundsW) × (imageW / imageH); a sample acts
/// only when |y| > |x| + |z|; the target is the model offset plus -y × zoom × 5, clamped to
/// [0, contentW - boundsW] with y centred, animated 0.3 s easeOut from the current state; on every
/// tick the bar reads the presentation offset; a tap toggles between panning at full zoom and zoom
/// 1, motion coming back only when the zoom-in has finished. Unlike the original it never divides
/// by zero: degenerate sizes give zoom 1, offsets 0 and a full bar.
public final class Panner: Plugin {
    public struct Configuration: Codable, Sendable, Equatable {
        public var scrollView = "scroll"
        public var imageView = "image"
        public var scrollBar = "scrollBar"
        /// The photo's size in pixels.
        public var image = ImageSize(width: 2000, height: 500)
        /// `kRotationMultiplier`.
        public var multiplier = 5.0
        /// `kMovementSmoothing`: the duration of each pan animation, in seconds.
        public var smoothing = 0.3
        /// The axis rule: a sample acts only if |main axis| > dominance × (|other| + |z|).
        public var dominance = 1.0
        /// Scale each step by the time since the previous sample (× 60 Hz), so the pan speed no
        /// longer depends on the sensor rate; a stream's first sample only starts the clock.
        public var scaleByInterval = false
        /// `horizontal` pans a wide photo with rotation about y; `vertical` a tall one with x.
        public var axis = Axis.horizontal
        /// Let a finger drag the photo while tilts pan it, as Paper's can. The original's scroll view
        /// takes no drag while motion pans (`scrollEnabled = NO`), only once a tap has turned
        /// motion off (`updateViewsForMotionBasedPanEnabled:`).
        public var draggable = false

        public init() {}
    }

    public struct ImageSize: Codable, Sendable, Equatable {
        public var width: Double
        public var height: Double

        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    public enum Axis: String, Codable, Sendable, CaseIterable { case horizontal, vertical }

    public static let id = "panner"
    public static let summary =
        "pans a wide photo as the device tilts (a negative y rotation scrolls right: contentOffset.x grows), with a scroll bar (SubjectiveCPhotoPanner)"
    public static let durations = ["smoothing"]
    public static let defaultConfiguration = Configuration()
    public static let scene: ScenePreset? = PhotoPannerScene.preset
    public static let stateKeys = [
        PluginStateKey("maximumZoom", "the zoom at which the photo fills the scroll view's height (width with axis: vertical)"),
        PluginStateKey(
            "motionEnabled", "whether tilts pan (a tap zooms out and back, turning it off and on)", values: ["true", "false"]),
    ]

    /// The pan animation's duration in the original, and the toggle's (`kAnimationDuration`).
    public static let toggleDuration = 0.3
    /// The rate `scaleByInterval` normalises to.
    public static let referenceRate = 60.0
    /// With `scaleByInterval`, a longer gap between samples starts a new stream.
    public static let longestInterval = 0.1

    private let configuration: Configuration
    private let context: PluginContext
    /// The three nodes, resolved once.
    private let scrollView: NodeHandle
    private let imageView: NodeHandle
    private let scrollBar: NodeHandle
    /// What the scroll bar reads every frame, resolved once: the presentation offset and photo
    /// frame, and the scroll view's model frame (its bounds).
    private let presentationOffset: PropertyHandle
    private let presentationImageFrame: PropertyHandle
    private let scrollFrame: PropertyHandle
    private var motionEnabled = true
    private var lastSample: VirtualTime?

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        self.context = context
        try Self.checkDurations(configuration, in: context)
        scrollView = try context.node(configuration.scrollView)
        imageView = try context.node(configuration.imageView)
        scrollBar = try context.node(configuration.scrollBar)
        presentationOffset = context.property(.contentOffset, of: scrollView, presentation: true)
        presentationImageFrame = context.property(.frame, of: imageView, presentation: true)
        scrollFrame = context.property(.frame, of: scrollView, presentation: false)
        try zoom(to: maximumZoom, animated: false)
        try updateScrollEnabled()
        let offsets = ["contentOffset", "presentation.contentOffset"].map { ValuePath("\(configuration.scrollView).\($0)") }
        try context.invariant(Invariant(name: "offset never NaN", .finite(offsets)))
        context.invariant("offset within the content") { [unowned self] in offsetWithinContent() }
        context.on(.motion) { [unowned self] sample in try pan(with: sample) }
        context.on(.tick) { [unowned self] _ in try updateScrollBar() }
        context.on(.tap) { [unowned self] _ in try toggleMotion() }
        try updateScrollBar()
    }

    public var state: Fields {
        ["maximumZoom": .double(maximumZoom), "motionEnabled": .bool(motionEnabled)]
    }

    // MARK: Geometry

    private var bounds: Size { context.scene[scrollView]?.frame.size ?? .zero }

    /// `maximumZoomScaleForImage`: (boundsH / boundsW) × (imageW / imageH) for a wide photo; 1
    /// when a size is zero; within ``ScenarioLimits/zoomScale`` (the nearest bound for a photo's
    /// ratio past it: at 1.775e308 the content would be infinitely wide and its offset NaN).
    var maximumZoom: Double {
        let bounds = bounds
        let image = configuration.image
        let zoom =
            configuration.axis == .horizontal
            ? (bounds.height / bounds.width) * (image.width / image.height)
            : (bounds.width / bounds.height) * (image.height / image.width)
        guard zoom.isFinite && zoom > 0 else { return 1 }
        return min(max(zoom, ScenarioLimits.zoomScale.lowerBound), ScenarioLimits.zoomScale.upperBound)
    }

    /// The clamped offset for a position along the pan axis, the other axis centred; 0 where the
    /// content is no larger than the screen.
    private func clampedOffset(_ position: Double, contentSize: Size) -> Point {
        let bounds = bounds
        func clamp(_ value: Double, _ content: Double, _ visible: Double) -> Double { max(0, min(value, content - visible)) }
        func centre(_ content: Double, _ visible: Double) -> Double { max(0, content / 2 - visible / 2) }
        switch configuration.axis {
        case .horizontal:
            return Point(x: clamp(position, contentSize.width, bounds.width), y: centre(contentSize.height, bounds.height))
        case .vertical:
            return Point(x: centre(contentSize.width, bounds.width), y: clamp(position, contentSize.height, bounds.height))
        }
    }

    /// Sets the scroll view's zoom (content size and image frame follow), centring the content.
    private func zoom(to scale: Double, animated: Bool, completion: ((Bool) throws -> Void)? = nil) throws {
        let bounds = bounds
        let content = Size(width: bounds.width * scale, height: bounds.height * scale)
        let centred = Point(x: max(0, content.width / 2 - bounds.width / 2), y: max(0, content.height / 2 - bounds.height / 2))
        let changes = { [context, scrollView, imageView] in
            try context.set(SIMD4(scale, 0, 0, 0), for: .zoomScale, of: scrollView)
            try context.set(content.vector, for: .contentSize, of: scrollView)
            try context.set(Rect(origin: .zero, size: content).vector, for: .frame, of: imageView)
            try context.set(centred.vector, for: .contentOffset, of: scrollView)
        }
        guard animated else {
            try changes()
            return
        }
        try context.animate(AnimationParameters(duration: Self.toggleDuration), changes: changes, completion: completion)
    }

    /// What the clamping promises (the original divides by zero on a degenerate image): the
    /// scroll view's offset within [0, content - bounds] on both axes.
    private func offsetWithinContent() -> InvariantOutcome {
        guard let scroll = context.scene[scrollView] else { return .holds }
        let offset = scroll.contentOffset
        let content = scroll.contentSize
        let bounds = scroll.frame.size
        let highest = Point(x: max(0, content.width - bounds.width), y: max(0, content.height - bounds.height))
        let tolerance = Condition.tolerance
        guard
            !((-tolerance...highest.x + tolerance).contains(offset.x) && (-tolerance...highest.y + tolerance).contains(offset.y))
        else {
            return .holds
        }
        return .broken(
            actual: "\(scrollView.id).contentOffset = \(AnimatableProperty.contentOffset.fieldValue(offset.vector).jsonText)",
            expected: "x in [0, \(highest.x)] and y in [0, \(highest.y)]")
    }

    // MARK: Behaviour

    private func pan(with sample: MotionSample) throws {
        let time = context.now
        let interval = lastSample.map { (time - $0).seconds }
        lastSample = time
        guard motionEnabled, let scroll = context.scene[scrollView] else { return }
        let rate = sample.rotationRate
        let (main, other) = configuration.axis == .horizontal ? (rate.y, rate.x) : (rate.x, rate.y)
        guard abs(main) > configuration.dominance * (abs(other) + abs(rate.z)) else { return }
        var step = -main * maximumZoom * configuration.multiplier
        if configuration.scaleByInterval {
            // The first sample of a stream (none in the last 0.1 s) only starts the clock.
            guard let interval, interval <= Self.longestInterval else { return }
            step *= interval * Self.referenceRate
        }
        // The original reads the model offset: the target of the animation still in flight.
        let current = configuration.axis == .horizontal ? scroll.contentOffset.x : scroll.contentOffset.y
        let target = clampedOffset(current + step, contentSize: scroll.contentSize)
        try context.animate(
            AnimationParameters(
                duration: configuration.smoothing, curve: .easeOut,
                options: [.beginFromCurrentState, .allowUserInteraction])
        ) {
            try context.set(target.vector, for: .contentOffset, of: scrollView)
        }
    }

    /// `displayLinkUpdate:`: the bar from the presentation offset and content width and the model
    /// bounds, set without animation.
    private func updateScrollBar() throws {
        let horizontal = configuration.axis == .horizontal
        // A node removed reads as zero, as the scene's reads of it do.
        let offset = (try? context.value(of: presentationOffset))?[horizontal ? 0 : 1] ?? 0
        let imageFrame = (try? context.value(of: presentationImageFrame)) ?? .zero
        let bounds = (try? context.value(of: scrollFrame)) ?? .zero
        let content = horizontal ? imageFrame[2] : imageFrame[3]
        let visible = horizontal ? bounds[2] : bounds[3]
        let scrollable = content - visible
        let amount = scrollable > 0 ? max(0, min(1, offset / scrollable)) : 0
        let bar = content > 0 ? max(0, min(1, visible / content)) : 1
        let start = amount * (1 - bar)
        try context.set(SIMD4(start, 0, 0, 0), for: .strokeStart, of: scrollBar)
        try context.set(SIMD4(start + bar, 0, 0, 0), for: .strokeEnd, of: scrollBar)
    }

    /// `toggleMotionBasedPan:`: off at once and zoom out; or zoom in, motion back on completion.
    private func toggleMotion() throws {
        if motionEnabled {
            motionEnabled = false
            try updateScrollEnabled()
            try zoom(to: 1, animated: true)
        } else {
            try zoom(to: maximumZoom, animated: true) { [unowned self] _ in
                motionEnabled = true
                try updateScrollEnabled()
            }
        }
    }

    /// `scrollEnabled = !motionBasedPanEnabled`, as the original sets it, or always with `draggable`.
    private func updateScrollEnabled() throws {
        let enabled = configuration.draggable || !motionEnabled
        try context.scene.update(scrollView.id) { $0.scrollEnabled = enabled }
    }
}
