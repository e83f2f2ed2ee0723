import RehearseCore

extension ScenarioExecution {
    /// `scroll-until-visible`: until the node is fully visible, drags the scroll view from the
    /// centre of its visible part by ``ScrollUntilVisible/dragFraction`` of that part, held still
    /// before lifting (so it does not fling), then runs frame by frame until the scroll view is at
    /// rest. Fails, rather than looping, when the node cannot be shown by scrolling (hidden,
    /// transparent, gone, or the scroll view does not scroll), when a drag moves nothing (the
    /// content's end), when the scroll view does not come to rest within
    /// ``ScrollUntilVisible/restLimit``, or after the most drags it may make.
    func scrollUntilVisible(_ scroll: ScrollUntilVisible, at step: Step) {
        guard let node = self.node(scroll.node, for: step), let scrollView = self.node(scroll.scrollView, for: step) else {
            return
        }
        func giveUp(_ actual: String) {
            record(
                "scroll-until-visible \(node)",
                expected: "\(node) fully visible within \(scroll.maximumDrags) drags of \(scrollView)",
                actual: actual, at: step.location)
        }
        guard simulation.scene[scrollView]?.kind == .scrollView else { return giveUp("\(scrollView) is not a scroll view") }
        for drags in 0... {
            guard !hasStopped else { return }
            let visibility = simulation.visibility(of: node)
            if visibility.isFullyVisible { return }
            if let problem = visibility.problem, !problem.dependsOnPosition { return giveUp("\(node): \(problem)") }
            let viewport = simulation.visibility(of: scrollView)
            guard let visible = viewport.visibleRect else { return giveUp("\(scrollView): \(viewport.problem ?? .notInScene)") }
            let overhang = Self.overhang(of: visibility.frame ?? visible, beyond: visible)
            let whereItIs =
                overhang.map { "\(node) is still \(Visibility.points($0.distance)) pt \($0.side) \(scrollView)'s visible bounds" }
                ?? "\(node): \(visibility.problem.map(String.init(describing:)) ?? "only partly visible")"
            guard simulation.scene[scrollView]?.scrollEnabled != false else {
                return giveUp("\(scrollView) does not scroll (its scrollEnabled is false): \(whereItIs)")
            }
            guard drags < scroll.maximumDrags else {
                return giveUp("after \(drags) drags \(whereItIs)")
            }
            let look = scroll.direction ?? overhang?.direction ?? .down
            let before = simulation.scene[scrollView]?.contentOffset
            drag(scrollView, in: visible, looking: look, at: step)
            guard !hasStopped else { return }
            guard waitForRest(of: scrollView) else {
                return giveUp(
                    "\(scrollView) did not come to rest within "
                        + "\(ScrollUntilVisible.restLimit.seconds.shortDescription) s of drag \(drags + 1)")
            }
            guard simulation.scene[scrollView]?.contentOffset != before else {
                return giveUp(
                    "drag \(drags + 1) reached the end of \(scrollView)'s content "
                        + "looking \(look.rawValue): \(whereItIs)")
            }
        }
    }

    /// How far `frame` reaches past `bounds` on the side it reaches furthest, and which way to look
    /// to bring it in; nil when it is inside.
    private static func overhang(of frame: Rect, beyond bounds: Rect) -> (
        distance: Double, side: String, direction: SwipeDirection
    )? {
        let sides: [(Double, String, SwipeDirection)] = [
            (frame.maxY - bounds.maxY, "below", .down), (bounds.minY - frame.minY, "above", .up),
            (frame.maxX - bounds.maxX, "right of", .right), (bounds.minX - frame.minX, "left of", .left),
        ]
        return sides.filter { $0.0 > 1e-9 }.max { $0.0 < $1.0 }.map { (distance: $0.0, side: $0.1, direction: $0.2) }
    }

    /// One drag of the scroll view from the centre of its visible part `visible`, the finger moving
    /// against `look` (looking down moves it up), held still, lifted.
    private func drag(_ scrollView: String, in visible: Rect, looking look: SwipeDirection, at step: Step) {
        let vertical = look == .up || look == .down
        let distance = ScrollUntilVisible.dragFraction * (vertical ? visible.size.height : visible.size.width)
        let by = Point(x: -look.unit.x * distance, y: -look.unit.y * distance)
        let gesture = Gesture.drag(by: by, duration: ScrollUntilVisible.dragDuration, hold: ScrollUntilVisible.holdDuration)
        let stream = TouchStreamStep(
            events: [], duration: gesture.duration,
            aim: TouchStreamStep.Aim(gesture: gesture, node: .id(scrollView), fingers: simulation.freeFingers(1)))
        let start = simulation.now
        inject(stream, at: step)
        advance(to: start + gesture.duration)
    }

    /// Runs display frame by display frame until `scrollView` is neither dragged nor moving by
    /// itself; false if it still is after ``ScrollUntilVisible/restLimit`` (true if the run stopped).
    private func waitForRest(of scrollView: String) -> Bool {
        let deadline = simulation.now + ScrollUntilVisible.restLimit
        let frame = simulation.displayLink.time(ofFrame: 1)
        while simulation.scrolling.isDragging(scrollView) || simulation.scrolling.isDecelerating(scrollView) {
            guard simulation.now < deadline else { return false }
            advance(to: simulation.now + frame)
            if hasStopped { return true }
        }
        return true
    }
}
