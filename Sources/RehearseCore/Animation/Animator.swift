/// Runs UIKit-style animation transactions on scene properties and answers presentation values.
///
/// Inside ``animate(_:owner:changes:completion:)``, every model change made through
/// ``set(_:for:of:)`` becomes an animation: the model value changes at once, the presentation value
/// follows the curve. Each animation publishes `animation.finished` when it ends (with
/// `finished: false` when replaced), and the transaction's completion runs once all of its
/// animations have ended.
public final class Animator {
    private struct Key: Hashable {
        let node: String
        let property: AnimatableProperty
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

    private struct Running {
        let id: UInt64
        let from: SIMD4<Double>
        let to: SIMD4<Double>
        let start: VirtualTime
        let end: VirtualTime
        let duration: Double
        let curve: TimingCurve
        let additive: Bool
        let options: AnimationOptions
        let group: Group

        func progress(at time: VirtualTime) -> Double {
            curve.progress(elapsed: (time - start).seconds, duration: duration)
        }
    }

    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    private var running: [Key: [Running]] = [:]
    private var transactions: [(parameters: AnimationParameters, group: Group)] = []
    private var nextID: UInt64 = 0

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
    }

    /// Runs `changes` as one animation transaction. `completion` runs (as `owner`) once every
    /// animation it started has ended, with `true` unless one was interrupted; right away when it
    /// started none.
    public func animate(_ parameters: AnimationParameters, owner: String, changes: () throws -> Void,
                        completion: ((Bool) throws -> Void)? = nil) rethrows {
        let group = Group(owner: owner, completion: completion)
        transactions.append((parameters, group))
        defer { transactions.removeLast() }
        try changes()
        if group.remaining == 0 { scheduleCompletion(of: group) }
    }

    /// Sets a model value; inside a transaction the change is animated.
    public func set(_ value: SIMD4<Double>, for property: AnimatableProperty, of id: String) throws(SceneError) {
        guard let old = scene[id]?[property] else { throw SceneError.unknownNode(id) }
        try scene.update(id) { $0[property] = value }
        guard let (parameters, group) = transactions.last, old != value else { return }
        let key = Key(node: id, property: property)
        let now = timeline.now
        var from = old
        if model == .replace {
            if parameters.options.contains(.beginFromCurrentState) {
                from = presentationValue(of: key, model: old, at: now)
            }
            interruptAnimations(of: key)
        }
        let duration = max(parameters.curve.duration(requested: parameters.duration), 0)
        let start = now + (VirtualTime.seconds(max(parameters.delay, 0)) ?? .zero)
        let end = start + (VirtualTime.seconds(duration) ?? .zero)
        nextID += 1
        let animation = Running(
            id: nextID, from: from, to: value, start: start, end: end, duration: duration,
            curve: parameters.curve, additive: model == .additive, options: parameters.options, group: group)
        running[key, default: []].append(animation)
        runningCount += 1
        group.remaining += 1
        timeline.schedule(at: end, owner: "animator") { [unowned self] in self.finish(animation.id, of: key) }
        onAnimationStarted?()
    }

    /// The value of `property` on screen now, or `nil` for an unknown node.
    public func presentationValue(of property: AnimatableProperty, of id: String) -> SIMD4<Double>? {
        guard let model = scene[id]?[property] else { return nil }
        return presentationValue(of: Key(node: id, property: property), model: model, at: timeline.now)
    }

    /// Whether a node has an animation in flight that blocks taps (one started without
    /// `allowUserInteraction`), as UIKit ignores touches on views being animated.
    public func blocksInteraction(_ id: String) -> Bool {
        AnimatableProperty.allCases.contains { property in
            running[Key(node: id, property: property)]?.contains { !$0.options.contains(.allowUserInteraction) } ?? false
        }
    }

    private func presentationValue(of key: Key, model: SIMD4<Double>, at time: VirtualTime) -> SIMD4<Double> {
        guard let animations = running[key] else { return model }
        var value = model
        for animation in animations {
            let progress = animation.progress(at: time)
            if animation.additive {
                value += (animation.from - animation.to) * (1 - progress)
            } else {
                value = animation.from + (animation.to - animation.from) * progress
            }
        }
        return value
    }

    private func interruptAnimations(of key: Key) {
        guard let animations = running.removeValue(forKey: key) else { return }
        for animation in animations {
            end(animation, of: key, finished: false)
        }
    }

    private func finish(_ id: UInt64, of key: Key) {
        guard let index = running[key]?.firstIndex(where: { $0.id == id }),
              let animation = running[key]?.remove(at: index) else { return }
        if running[key]?.isEmpty == true { running[key] = nil }
        end(animation, of: key, finished: true)
    }

    private func end(_ animation: Running, of key: Key, finished: Bool) {
        runningCount -= 1
        bus.publish(.animationFinished(
            AnimationFinished(target: key.node, property: key.property.rawValue, finished: finished)), source: "animator")
        let group = animation.group
        group.remaining -= 1
        if !finished { group.allFinished = false }
        if group.remaining == 0 { scheduleCompletion(of: group) }
    }

    private func scheduleCompletion(of group: Group) {
        guard let completion = group.completion else { return }
        timeline.schedule(at: timeline.now, owner: group.owner) { try completion(group.allFinished) }
    }
}
