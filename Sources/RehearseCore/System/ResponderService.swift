/// Keeps the first responder: answers `focus` and `resign` requests, focuses a text input that is
/// tapped, and posts `focus.changed` whenever the first responder moves.
public final class ResponderService {
    private let scene: Scene
    private let bus: EventBus

    /// Creates the system service and subscribes it to `focus`, `resign` and `tap`.
    public init(scene: Scene, bus: EventBus) {
        self.scene = scene
        self.bus = bus
        bus.subscribe(.focus, owner: "responder") { [unowned self] in self.becomeFirstResponder($0.target) }
        bus.subscribe(.resign, owner: "responder") { [unowned self] in self.resign($0.target) }
        bus.subscribe(.tap, owner: "responder") { [unowned self] in
            if let target = $0.target { self.becomeFirstResponder(target) }
        }
    }

    /// Makes `id` first responder if it is a visible text input that is not already.
    private func becomeFirstResponder(_ id: String) {
        guard let node = scene[id], node.kind.isTextInput, !node.hidden, scene.firstResponder != id else { return }
        let previous = scene.firstResponder
        scene.firstResponder = id
        bus.publish(.focusChanged(FocusChange(from: previous, to: id)), source: "responder")
    }

    /// Ends editing in `id`, or in the whole scene when `id` is `nil`.
    private func resign(_ id: String?) {
        guard let previous = scene.firstResponder, id == nil || id == previous else { return }
        scene.firstResponder = nil
        bus.publish(.focusChanged(FocusChange(from: previous, to: nil)), source: "responder")
    }
}
