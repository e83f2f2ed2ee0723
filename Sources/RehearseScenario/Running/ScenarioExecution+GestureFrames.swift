import RehearseCore

/// A gesture step's frames for the HTML report's timeline (``GestureFrame``): sampled while the
/// step runs by a reader on the clock, which changes nothing, so the trace is the same with or
/// without them.
extension ScenarioExecution {
    /// Gets ready to take `step`'s frames, if it is a gesture (``Step/Action/isGesture``) and the
    /// run may show more; they start with its first finger events (``noteGestureTouches(_:)``).
    func recordGestureFrames(of step: Step) {
        guard step.action.isGesture, !gestureFramesFull, !stepPicturesFull else { return }
        gestureFrames = GestureFrameRecorder(until: step.action.clock(after: simulation.now))
    }

    /// Tells the gesture step being recorded of finger events injected now (at their offsets from
    /// now); its first start the samples.
    func noteGestureTouches(_ touches: [TimedTouch]) {
        guard let recorder = gestureFrames, recorder.add(touches, at: simulation.now) else { return }
        sample(every: recorder.interval, until: recorder.end, while: { !recorder.isFinished }) { [unowned self] in
            recorder.sample(at: simulation.now) { SceneSnapshot(simulation) }
        }
    }

    /// The frames of the gesture step just run, the scene now the last; none when it was not
    /// recorded, or when they would pass ``ScenarioRunner/Rendering/maximumGestureFramesPerRun``
    /// or the nodes the run's pictures may draw (then no later step shows any, with a note).
    func finishGestureFrames(at location: SourceLocation) -> [GestureFrame] {
        guard let recorder = gestureFrames else { return [] }
        gestureFrames = nil
        let frames = recorder.finish(with: SceneSnapshot(simulation))
        guard !frames.isEmpty else { return [] }
        guard gestureFrameCount + frames.count <= ScenarioRunner.Rendering.maximumGestureFramesPerRun else {
            gestureFramesFull = true
            notes.append(
                "the report's gesture frames stop at \(location): they would be more than "
                    + "\(ScenarioRunner.Rendering.maximumGestureFramesPerRun)")
            return []
        }
        guard admitReportPictures(nodes: frames.reduce(0) { $0 + $1.picture.items.count + 1 }, at: location) else { return [] }
        gestureFrameCount += frames.count
        return frames
    }
}
