/// UIView animation options that change how an animation starts, with UIKit's bit values.
public struct AnimationOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `UIViewAnimationOptionAllowUserInteraction` (1 << 1).
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// `UIViewAnimationOptionBeginFromCurrentState` (1 << 2): start from the on-screen value of an
    /// in-flight animation (matters in the `replace` model).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
}

/// How property animations combine, chosen per simulation.
public enum AnimationModel: String, CaseIterable, Sendable, Codable {
    /// iOS 8 and later: an in-flight animation keeps running and each adds
    /// (old - new) × (1 - progress) to the model value.
    case additive
    /// iOS 7: a new animation of a property replaces the running one, which finishes with
    /// `finished: false`; it starts from the on-screen value with `beginFromCurrentState`, from the
    /// old model value without it.
    case replace
}

/// The parameters of an animation transaction, as `UIView.animate(withDuration:delay:options:)`.
public struct AnimationParameters: Hashable, Sendable {
    /// The requested duration in seconds (springs and the keyboard curve use their own).
    public var duration: Double
    /// Seconds before the animation starts; until then the old value shows.
    public var delay: Double
    public var curve: TimingCurve
    public var options: AnimationOptions

    public init(
        duration: Double, delay: Double = 0, curve: TimingCurve = .easeInEaseOut,
        options: AnimationOptions = []
    ) {
        self.duration = duration
        self.delay = delay
        self.curve = curve
        self.options = options
    }
}
