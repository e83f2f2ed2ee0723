import RehearseCore

/// Takes a gesture step's frames (``GestureFrame``) as it runs: the scene every
/// ``ScenarioRunner/Rendering/gestureFrameInterval`` of simulated time from the step's first finger
/// down, and as the step ends (always the first and the last). At most
/// ``ScenarioRunner/Rendering/maximumGestureFramesPerStep``: where one more would leave no room for
/// the last, every other frame is dropped and the interval doubled, so the frames stay evenly
/// spread over the step and never closer than the interval (the last may come sooner after the one
/// before only when there are no others). The fingers are the step's own, as its events place them.
final class GestureFrameRecorder {
    /// When the step ends at the latest: the samples stop there.
    let end: VirtualTime
    /// The time between two frames: ``ScenarioRunner/Rendering/gestureFrameInterval``, doubled each
    /// time the frames are thinned.
    private(set) var interval = ScenarioRunner.Rendering.gestureFrameInterval
    /// When the step's first finger events were injected; nil until then.
    private(set) var start: VirtualTime?
    /// Whether the step is over: a sample still waiting on the clock takes nothing.
    private(set) var isFinished = false
    private var pictures: [SceneSnapshot] = []
    /// The step's finger events at their times, in the order they were injected.
    private var touches: [(time: VirtualTime, event: TimedTouch)] = []

    init(until end: VirtualTime) {
        self.end = end
    }

    /// Adds finger events injected at `time` (each at its offset from it); returns whether they are
    /// the step's first, whose time the frames start from.
    func add(_ events: [TimedTouch], at time: VirtualTime) -> Bool {
        touches += events.map { (time + $0.offset, $0) }
        guard start == nil else { return false }
        start = time
        return true
    }

    /// A sample at `time` (the base interval's): takes `picture()` when `time` is on the current
    /// interval, thinning the frames first when they leave room for the last frame only.
    func sample(at time: VirtualTime, _ picture: () -> SceneSnapshot) {
        guard !isFinished, let start, onGrid(time, from: start) else { return }
        if pictures.count >= ScenarioRunner.Rendering.maximumGestureFramesPerStep - 1 {
            interval = interval + interval
            pictures.removeAll { !onGrid($0.time, from: start) }
            guard onGrid(time, from: start) else { return }
        }
        pictures.append(picture())
    }

    /// The frames, `last` (the scene as the step ended) the last of them, each with the step's
    /// fingers at its moment; none when the step injected no finger. Nothing is sampled after.
    func finish(with last: SceneSnapshot) -> [GestureFrame] {
        isFinished = true
        guard start != nil else { return [] }
        var pictures = self.pictures
        if let previous = pictures.last,
            previous.time == last.time || (pictures.count > 1 && last.time - previous.time < interval)
        {
            pictures.removeLast()
        }
        pictures.append(last)
        return zip(pictures, fingers(at: pictures.map(\.time))).map { GestureFrame(picture: $0, fingers: $1) }
    }

    private func onGrid(_ time: VirtualTime, from start: VirtualTime) -> Bool {
        (time - start).nanoseconds % interval.nanoseconds == 0
    }

    /// The step's fingers at each of `times` (in order), in one pass over its events: each finger
    /// down where its last event by then put it, and lifting where it lifted since the time before
    /// (both, for a finger lifted and put down again in between).
    private func fingers(at times: [VirtualTime]) -> [[FingerMark]] {
        let events = touches.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var down: [Int: Point] = [:]
        var next = events.startIndex
        return times.map { time in
            var lifted: [Int: Point] = [:]
            while next < events.endIndex, events[next].time <= time {
                let touch = events[next].event.touch
                switch events[next].event.phase {
                case .began, .moved: down[touch.id] = touch.point
                case .ended, .cancelled: (down[touch.id], lifted[touch.id]) = (nil, touch.point)
                }
                next += 1
            }
            return Set(down.keys).union(lifted.keys).sorted().flatMap { id in
                [
                    lifted[id].map { FingerMark(id: id, point: $0, isLifting: true) },
                    down[id].map { FingerMark(id: id, point: $0, isLifting: false) },
                ].compactMap { $0 }
            }
        }
    }
}
