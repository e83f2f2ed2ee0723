import RehearseCore

extension Step.Action {
    /// What the step does in a few words, for the HTML report's timeline: names, targets and
    /// times, never a value typed (a secure field's text must not reach a report).
    public var summary: String {
        switch self {
        case .inject(.text(let input)): "type into \(input.target)"
        case .inject(let event): event.name + (Self.target(of: event).map { " \($0)" } ?? "")
        case .injectQueried(let queried):
            if case .text = queried.kind {
                "type into \(queried.query)"
            } else {
                "\(queried.event(target: "").name) \(queried.query)"
            }
        case .schedule(let event, let time): "emit \(event.name) at \(time) s"
        case .motionStream(_, let count, let duration): "motion: \(count) samples over \(duration) s"
        case .touchStream(let stream):
            stream.aim.map { "\($0.gesture.name) on \($0.node) over \(stream.duration) s" }
                ?? "touches: \(stream.events.count) over \(stream.duration) s"
        case .wait(let duration): "wait \(duration) s"
        case .advance(let time): "at \(time) s"
        case .keyboardShow: "keyboard: show"
        case .keyboardHide: "keyboard: hide"
        case .expect(let expectations): "expect " + expectations.map(\.path).joined(separator: ", ")
        case .expectEvent(let expectation): "expect-event \(expectation.name)"
        case .expectNoEvent(let expectation): "expect-no-event \(expectation.name)"
        case .set(let changes): "set " + changes.map(\.path).joined(separator: ", ")
        case .animate(let animation): "animate \(animation.path)"
        case .activate(let names): "activate " + names.joined(separator: ", ")
        case .snapshot(let name): "snapshot \(name)"
        case .expectPicture(let name, _): "expect-picture \(name)"
        case .expectVisible(let node, let visible): "\(visible ? "expect-visible" : "expect-not-visible") \(node)"
        case .scrollUntilVisible(let scroll): "scroll \(scroll.scrollView) until \(scroll.node) is visible"
        case .settle(let timeout): "settle (within \(timeout) s)"
        case .waitUntil(let condition, let timeout): "wait-until \(condition.path) (within \(timeout) s)"
        case .expectAccessible(let rules): "expect-accessible " + rules.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// Whether the step only looks at the simulation (an expectation or a picture), changing
    /// nothing and moving no clock.
    public var onlyLooks: Bool {
        switch self {
        case .expect, .expectEvent, .expectNoEvent, .expectPicture, .snapshot, .expectVisible, .expectAccessible: true
        case .inject, .injectQueried, .schedule, .motionStream, .touchStream, .wait, .advance, .keyboardShow, .keyboardHide, .set,
            .animate, .activate, .scrollUntilVisible, .settle, .waitUntil:
            false
        }
    }

    private static func target(of event: Event) -> String? {
        if case .string(let target)? = event.fields["target"] { return target }
        return nil
    }
}
