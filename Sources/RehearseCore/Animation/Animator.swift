/// Runs UIKit-style animation transactions on scene properties and answers presentation values.
///
/// Inside ``animate(_:owner:changes:completion:)``, every model change made through
/// ``set(_:for:of:)`` becomes an animation: the model value changes at once, the presentation value
/// follows the curve. Each animation publishes `animation.finished` when it ends (with
/// `finished: false` when replaced), and the transaction's completion runs once all of its
/// animations have ended.
public final class Animator {
    /// A property of the node in one scene slot; `index` places it in ``running``.
    private struct Key {
        let slot: Int
        let property: AnimatableProperty

        var index: Int { slot * AnimatableProperty.count + property.index }
    }

    private final class Group {
        let owner: String
        let completion: ((Bool) throws -> Void)?
        var remaining = 0
        var allFinished = true

        init(owner: String, completion: ((Bool) throws -> Void)?) {
            self.owner = owner
            self.completion = completion
        }
    }

    /// What a running animation needs only when it ends.
    private struct Ending {
        let node: String
        let group: Group
    }

    /// A running animation: plain values only, so reading presentation values copies no references.
    private struct Running {
        let id: UInt64
        /// Shared by the animations that started together with the same duration and curve
        /// (``Timing``), whose progress is then computed once a frame.
        let timing: UInt64
        let from: SIMD4<Double>
        let to: SIMD4<Double>
        let start: VirtualTime
        let end: VirtualTime
        let duration: Double
        let curve: TimingCurve
        let additive: Bool
        let options: AnimationOptions
        /// 1 for the components the animation moves (all four, or one for a key path such as
        /// `frame.y`), 0 for the others.
        let mask: SIMD4<Double>

        /// The on-screen value at `progress` (``TimingCurve/progress(elapsed:duration:)`` now)
        /// given the value below this animation: additively the remaining offset is added (it is 0
        /// where `from` and `to` agree); otherwise the moved components are replaced, as a later
        /// Core Animation animation of a key path overrides an earlier one's value there.
        @inline(__always)  // Read in place: the animation is not copied out to apply it.
        func apply(to value: SIMD4<Double>, progress: Double) -> SIMD4<Double> {
            if additive { return value + (from - to) * (1 - progress) }
            return value + (from + (to - from) * progress - value) * mask
        }
    }

    /// What an animation's progress depends on. Animations started one after another with the
    /// same start, duration and curve (a transaction's, or transactions begun at one instant with
    /// the same parameters) share one, so a frame that reads them all solves the curve once.
    private struct Timing: Equatable {
        let start: VirtualTime
        let duration: Double
        let curve: TimingCurve
    }

    /// Every component.
    private static let wholeValue = SIMD4<Double>(repeating: 1)

    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    /// The animations in flight, by ``Key/index``.
    @exclusivity(unchecked) private var running: [[Running]] = []
    private var endings: [UInt64: Ending] = [:]
    private var transactions: [(parameters: AnimationParameters, group: Group)] = []
    private var nextID: UInt64 = 0
    /// The timing of the animation started last, and its number (``Running/timing``).
    private var lastTiming: (timing: Timing, number: UInt64)?
    /// The progress computed last: of which timing, at what time. The same timing at the same
    /// time has the same progress, so it is reused, to the bit.
    @exclusivity(unchecked) private var lastProgress: (timing: UInt64, time: VirtualTime, progress: Double) = (0, .zero, 0)

    /// How a new animation of a property combines with one in flight.
    public var model: AnimationModel
    /// The number of animations in flight.
    public private(set) var runningCount = 0
    /// Called when an animation starts (the display link wakes up).
    public var onAnimationStarted: (() -> Void)?

    /// Creates an animator over `scene`, publishing on `bus` and scheduling on `timeline`.
    public init(scene: Scene, bus: EventBus, timeline: Timeline, model: AnimationModel = .additive) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        self.model = model
        scene.onRemove = { [unowned self] slot in
            for property in AnimatableProperty.allCases {
                self.interruptAnimations(of: Key(slot: slot, property: property)) { _ in true }
            }
        }
    }

    /// Drops every animation in flight and its completion, without ending them (a simulation going
    /// away lets go of its plugins' completions).
    func cancelAll() {
        running = []
        endings = [:]
        runningCount = 0
    }

    /// Runs `changes` as one animation transaction. `completion` runs (as `owner`) once every
    /// animation it started has ended, with `true` unless one was interrupted; right away when it
    /// started none.
    public func animate(
        _ parameters: AnimationParameters, owner: String, changes: () throws -> Void,
        completion: ((Bool) throws -> Void)? = nil
    ) rethrows {
        let group = Group(owner: owner, completion: completion)
        transactions.append((parameters, group))
        defer { transactions.removeLast() }
        try changes()
        if group.remaining == 0 { scheduleCompletion(of: group) }
    }

    /// Sets a model value; inside a transaction the change is animated.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws(SceneError) {
        guard let slot = scene.slot(of: id) else { throw SceneError.unknownNode(id) }
        set(value, for: property, atSlot: slot, id: id)
    }

    /// ``set(_:for:of:)`` through a handle.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of node: NodeHandle) throws(SceneError) {
        guard let slot = scene.slot(of: node) else { throw SceneError.unknownNode(node.id) }
        set(value, for: property, atSlot: slot, id: node.id)
    }

    /// Sets one component of a model value (`frame.y`: the frame's component 1); inside a
    /// transaction only that component is animated, composing with animations of the whole
    /// property or its other components under either animation model, as Core Animation's key
    /// paths do. Throws for an unknown node; `component` must be below the property's ``AnimatableProperty/componentNames`` count.
    public func set(_ value: Double, component: Int, of property: AnimatableProperty, of id: String) throws(SceneError) {
        guard let slot = scene.slot(of: id) else { throw SceneError.unknownNode(id) }
        var vector = scene.modelValue(of: property, atSlot: slot)
        vector[component] = value
        var mask = SIMD4<Double>(repeating: 0)
        mask[component] = 1
        set(vector, for: property, atSlot: slot, id: id, mask: mask)
    }

    private func set(
        _ value: SIMD4<Double>, for property: AnimatableProperty, atSlot slot: Int, id: String,
        mask: SIMD4<Double> = wholeValue
    ) {
        let old = scene.modelValue(of: property, atSlot: slot)
        scene.setModelValue(value, of: property, atSlot: slot)
        guard let (parameters, group) = transactions.last, old != value else { return }
        let key = Key(slot: slot, property: property)
        let now = timeline.now
        var from = old
        if model == .replace {
            if parameters.options.contains(.beginFromCurrentState) {
                from = presentationValue(of: key, model: old, at: now)
            }
            // Core Animation replaces the animation of the same key path; others go on.
            interruptAnimations(of: key) { $0.mask == mask }
        }
        let duration = max(parameters.curve.duration(requested: parameters.duration), 0)
        let start = now + (VirtualTime.seconds(max(parameters.delay, 0)) ?? .zero)
        let end = start + (VirtualTime.seconds(duration) ?? .zero)
        nextID += 1
        let timing = Timing(start: start, duration: duration, curve: parameters.curve)
        if lastTiming?.timing != timing { lastTiming = (timing, nextID) }
        let animation = Running(
            id: nextID, timing: lastTiming?.number ?? nextID, from: from, to: value, start: start, end: end, duration: duration,
            curve: parameters.curve, additive: model == .additive, options: parameters.options, mask: mask)
        endings[nextID] = Ending(node: id, group: group)
        if running.count <= key.index {
            running.append(contentsOf: repeatElement([], count: key.index + 1 - running.count))
        }
        running[key.index].append(animation)
        runningCount += 1
        group.remaining += 1
        timeline.schedule(at: end, owner: "animator") { [unowned self] in self.finish(animation.id, of: key) }
        onAnimationStarted?()
    }

    /// The value of `property` on screen now, or `nil` for an unknown node.
    public func presentationValue(of property: AnimatableProperty, of id: String) -> SIMD4<Double>? {
        scene.slot(of: id).map { presentationValue(of: property, atSlot: $0) }
    }

    /// ``presentationValue(of:of:)`` through a handle: no id lookup.
    public func presentationValue(of property: AnimatableProperty, of node: NodeHandle) -> SIMD4<Double>? {
        scene.slot(of: node).map { presentationValue(of: property, atSlot: $0) }
    }

    /// The value a property handle reads now: its node's model or presentation value, whole; nil
    /// while the scene has no node with the handle's node's id.
    @inline(__always)  // One call a read: the context's.
    func value(of handle: PropertyHandle) -> SIMD4<Double>? {
        guard let slot = scene.slot(of: handle) else { return nil }
        let model = scene.modelValue(of: handle.property, atSlot: slot)
        guard handle.presentation else { return model }
        return presentationValue(of: Key(slot: slot, property: handle.property), model: model, at: timeline.now)
    }

    /// The presentation value of one property of the node in `slot` (resolved by the caller).
    func presentationValue(of property: AnimatableProperty, atSlot slot: Int) -> SIMD4<Double> {
        presentationValue(
            of: Key(slot: slot, property: property),
            model: scene.modelValue(of: property, atSlot: slot), at: timeline.now)
    }

    /// The animations in flight, in the order they started: the node, the property and when each ends.
    public var inFlight: [(node: String, property: AnimatableProperty, end: VirtualTime)] {
        var found: [(id: UInt64, node: String, property: AnimatableProperty, end: VirtualTime)] = []
        for (index, animations) in running.enumerated() {
            let property = AnimatableProperty.allCases[index % AnimatableProperty.count]
            for animation in animations {
                if let ending = endings[animation.id] { found.append((animation.id, ending.node, property, animation.end)) }
            }
        }
        return found.sorted { $0.id < $1.id }.map { ($0.node, $0.property, $0.end) }
    }

    /// Whether a node has an animation in flight that blocks taps (one started without
    /// `allowUserInteraction`), as UIKit ignores touches on views being animated.
    public func blocksInteraction(_ id: String) -> Bool {
        guard let slot = scene.slot(of: id) else { return false }
        return AnimatableProperty.allCases.contains { property in
            animations(of: Key(slot: slot, property: property)).contains { !$0.options.contains(.allowUserInteraction) }
        }
    }

    private func animations(of key: Key) -> [Running] {
        key.index < running.count ? running[key.index] : []
    }

    @inline(__always)  // Small, the curve solved out of line: a handle's read is one call.
    private func presentationValue(of key: Key, model: SIMD4<Double>, at time: VirtualTime) -> SIMD4<Double> {
        guard key.index < running.count, !running[key.index].isEmpty else { return model }
        var value = model
        for index in running[key.index].indices {
            // Read in place: a running animation is not copied out.
            let timing = running[key.index][index].timing
            let progress =
                lastProgress.timing == timing && lastProgress.time == time
                ? lastProgress.progress : progress(ofAnimation: index, of: key, at: time)
            value = running[key.index][index].apply(to: value, progress: progress)
        }
        return value
    }

    /// The progress of the animation at `index` of `key`'s at `time`, kept as ``lastProgress``:
    /// the next read of an animation that shares its timing at this time reuses it.
    @inline(never)  // Once a frame for animations that share their timing: kept out of the reads.
    private func progress(ofAnimation index: Int, of key: Key, at time: VirtualTime) -> Double {
        let animation = running[key.index][index]
        let progress = animation.curve.progress(elapsed: (time - animation.start).seconds, duration: animation.duration)
        lastProgress = (animation.timing, time, progress)
        return progress
    }

    private func interruptAnimations(of key: Key, where interrupted: (Running) -> Bool) {
        let animations = self.animations(of: key).filter(interrupted)
        guard !animations.isEmpty else { return }
        running[key.index].removeAll(where: interrupted)
        for animation in animations {
            end(animation, of: key, finished: false)
        }
    }

    private func finish(_ id: UInt64, of key: Key) {
        guard let position = animations(of: key).firstIndex(where: { $0.id == id }) else { return }
        let animation = running[key.index].remove(at: position)
        end(animation, of: key, finished: true)
    }

    private func end(_ animation: Running, of key: Key, finished: Bool) {
        runningCount -= 1
        guard let ending = endings.removeValue(forKey: animation.id) else { return }
        bus.publish(
            .animationFinished(
                AnimationFinished(target: ending.node, property: key.property.rawValue, finished: finished)),
            source: "animator")
        let group = ending.group
        group.remaining -= 1
        if !finished { group.allFinished = false }
        if group.remaining == 0 { scheduleCompletion(of: group) }
    }

    private func scheduleCompletion(of group: Group) {
        guard let completion = group.completion else { return }
        timeline.schedule(at: timeline.now, owner: group.owner) { try completion(group.allFinished) }
    }
}
