/// The system keyboard, posting notifications as iOS does.
///
/// When a text input becomes first responder and the keyboard is hidden it posts
/// `keyboard.willShow` (begin frame below the screen, end frame at the bottom, 0.25 s, the keyboard
/// curve) and `keyboard.didShow` once the keyboard has arrived; when focus moves to another text
/// input while it is up it posts `keyboard.willShow` again with the same frame; when no text input
/// is first responder any more it posts `keyboard.willHide` and `keyboard.didHide`. Its state
/// follows every `keyboard.willShow` / `keyboard.willHide` on the bus, injected ones included.
public final class KeyboardService {
    /// The duration iOS reports in keyboard notifications: 0.25 in the iOS 7 notification logged in
    /// "UIKeyboardWillChangeFrameNotification UIViewAnimationCurve set to 7 on iOS 7"
    /// (stackoverflow.com/questions/19482573).
    public static let animationDuration = 0.25

    private struct Movement {
        let change: KeyboardChange
        let start: VirtualTime

        /// How long the keyboard takes to arrive: 0.5 s on the keyboard curve, whatever `duration` says.
        var duration: Double { change.curve.curve.duration(requested: change.duration) }
    }

    private let scene: Scene
    private let bus: EventBus
    private let timeline: Timeline
    private let device: Device
    private var movement: Movement?
    private var postCount = 0
    /// Where the top of a keyboard that follows a finger is (`keyboardDismissMode: interactive`).
    private var followedTop: Double?

    /// Whether the keyboard is up (from `keyboard.willShow` until `keyboard.willHide`).
    public private(set) var isVisible = false

    /// Called when the keyboard starts moving (the display link wakes up).
    public var onMovementStarted: (() -> Void)?

    /// Creates the system service and subscribes it to focus changes, keyboard notifications and rotation.
    public init(scene: Scene, bus: EventBus, timeline: Timeline, device: Device) {
        self.scene = scene
        self.bus = bus
        self.timeline = timeline
        self.device = device
        bus.subscribe(.keyboardWillShow, owner: "keyboard") { [unowned self] in self.startMovement($0, showing: true) }
        bus.subscribe(.keyboardWillHide, owner: "keyboard") { [unowned self] in self.startMovement($0, showing: false) }
        bus.subscribe(.focusChanged, owner: "keyboard") { [unowned self] in self.follow($0) }
        bus.subscribe(.orientation, owner: "keyboard") { [unowned self] _ in if self.isVisible { self.show() } }
    }

    /// The keyboard's end frame in screen coordinates (below the screen while hidden).
    public var frame: Rect {
        movement?.change.frame ?? offscreenFrame(height: device.keyboardHeight(in: scene.orientation))
    }

    /// The keyboard's frame on screen now, following its curve, or the finger that drags it.
    public var presentationFrame: Rect {
        if let followed = followedFrame { return followed }
        guard let movement else { return frame }
        let progress = movement.change.curve.curve.progress(
            elapsed: (timeline.now - movement.start).seconds, duration: movement.duration)
        let begin = movement.change.beginFrame.vector
        let end = movement.change.frame.vector
        return Rect(begin + (end - begin) * progress)
    }

    /// Whether the keyboard is on its way up or down (the display link ticks meanwhile).
    public var isMoving: Bool {
        guard let movement else { return false }
        return (timeline.now - movement.start).seconds < movement.duration
    }

    /// When the keyboard arrives, while it is on its way up or down.
    public var movingUntil: VirtualTime? {
        guard isMoving, let movement else { return nil }
        return movement.start + (VirtualTime.seconds(movement.duration) ?? .zero)
    }

    /// Whether the keyboard is following a finger (`keyboardDismissMode: interactive`).
    public var isFollowingFinger: Bool { followedTop != nil }

    private var followedFrame: Rect? {
        followedTop.map { top in Rect(x: frame.minX, y: top, width: frame.size.width, height: frame.size.height) }
    }

    /// Puts the top of a keyboard that is up at `top` (screen points), kept between where it rests
    /// and the bottom of the screen, as a scroll view with `keyboardDismissMode: interactive` does
    /// while a finger drags below the keyboard's top. No notification is posted until it is let go:
    /// ``hide(duration:curve:)`` or ``show(height:duration:curve:)`` then start from where it is.
    public func follow(top: Double) {
        guard isVisible else { return }
        followedTop = min(max(top, frame.minY), scene.bounds.size.height)
    }

    /// Shows the keyboard (or announces it again at its frame when it is up) with `height`
    /// (the device's for the orientation when `nil`), `duration` and `curve`.
    public func show(height: Double? = nil, duration: Double = animationDuration, curve: NamedCurve = .keyboard) {
        let height = height ?? device.keyboardHeight(in: scene.orientation)
        let end = Rect(x: 0, y: scene.bounds.size.height - height, width: scene.bounds.size.width, height: height)
        let begin = isVisible ? followedFrame ?? frame : offscreenFrame(height: height)
        post(KeyboardChange(frame: end, beginFrame: begin, duration: duration, curve: curve), showing: true)
    }

    /// Hides the keyboard if it is up.
    public func hide(duration: Double = animationDuration, curve: NamedCurve = .keyboard) {
        guard isVisible else { return }
        let end = offscreenFrame(height: frame.size.height)
        post(KeyboardChange(frame: end, beginFrame: followedFrame ?? frame, duration: duration, curve: curve), showing: false)
    }

    private func offscreenFrame(height: Double) -> Rect {
        Rect(x: 0, y: scene.bounds.size.height, width: scene.bounds.size.width, height: height)
    }

    private func post(_ change: KeyboardChange, showing: Bool) {
        postCount += 1
        let token = postCount
        bus.publish(showing ? .keyboardWillShow(change) : .keyboardWillHide(change), source: "keyboard")
        let travel = Movement(change: change, start: timeline.now).duration
        let arrival = timeline.now + (VirtualTime.seconds(travel) ?? .zero)
        timeline.schedule(at: arrival, owner: "keyboard") { [unowned self] in
            guard self.postCount == token, self.isVisible == showing else { return }
            let arrived: Event = showing ? .keyboardDidShow(change) : .keyboardDidHide(change)
            self.bus.publish(arrived, source: "keyboard")
        }
    }

    /// Starts the keyboard's movement a `keyboard.willShow` or `keyboard.willHide` announced.
    private func startMovement(_ change: KeyboardChange, showing: Bool) {
        isVisible = showing
        movement = Movement(change: change, start: timeline.now)
        followedTop = nil
        onMovementStarted?()
    }

    /// Shows the keyboard for a text input that became first responder, and hides it otherwise.
    private func follow(_ change: FocusChange) {
        if let target = change.to, scene[target]?.kind.isTextInput == true {
            show(height: isVisible ? frame.size.height : nil)
        } else {
            hide()
        }
    }
}
