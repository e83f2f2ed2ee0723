/// `keyboardDismissMode`: what dragging a scroll view does to the keyboard.
extension ScrollViewService {
    /// Ends editing, so the keyboard hides with its usual notifications (`onDrag`, and an
    /// `interactive` release that hides); a keyboard shown with no first responder is hidden directly.
    func dismissKeyboard() {
        guard keyboard.isVisible else { return }
        if scene.firstResponder != nil {
            bus.publish(.resign(ResignRequest()), source: "scrolling")
        } else {
            keyboard.hide()
        }
    }

    /// `interactive`: once the finger dragging `id` has gone below the keyboard's top, the
    /// keyboard's top follows it (back up to where it rests at most) until the finger lifts.
    func followKeyboard(_ id: String, finger: Point) {
        guard keyboard.isVisible, var drag = drags[id] else { return }
        guard drag.movesKeyboard || finger.y > keyboard.frame.minY else { return }
        drag.movesKeyboard = true
        drags[id] = drag
        keyboard.follow(top: finger.y)
    }

    /// `interactive`, on release: the keyboard hides if the finger was moving down, returns if it
    /// was moving up, and with no velocity hides if it was pulled down more than half its height;
    /// returning posts `keyboard.willShow` from where it was let go, as iOS does.
    func releaseKeyboard(fingerVelocity: Double) {
        guard keyboard.isFollowingFinger else { return }
        let resting = keyboard.frame
        let pulled = keyboard.presentationFrame.minY - resting.minY
        let hides = fingerVelocity != 0 ? fingerVelocity > 0 : pulled > resting.size.height / 2
        if hides {
            dismissKeyboard()
        } else {
            keyboard.show(height: resting.size.height)
        }
    }
}
