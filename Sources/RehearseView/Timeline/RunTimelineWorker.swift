import Foundation
import RehearseCore
import RehearseScenario
import Synchronization

/// Simulates the loaded run for the pages on threads of its own, so that the service's thread
/// never waits for it (a long run takes seconds to simulate): one thread marks the run's events
/// once, another takes the scrubs, the latest first (a scrub asked for while another is being
/// simulated replaces any that waited). The service's thread picks up what is ready and is woken
/// when something is. A run with command plugins is simulated by one thread at a time: their
/// programs answer one simulation at a time.
final class RunTimelineWorker: Sendable {
    let timeline: RunTimeline

    private struct State {
        var markers: [RunTimeline.Marker]?
        var markersTaken = false
        var request: VirtualTime?
        var result: (time: VirtualTime, snapshot: SceneSnapshot?)?
    }

    private let state = Mutex(State())
    /// Held while a run with command plugins is simulated.
    private let programs = Mutex(())
    private let requested = DispatchSemaphore(value: 0)
    private let wake: @Sendable () -> Void

    /// Starts marking `timeline`'s run; `wake` is called (from the worker's threads) when markers
    /// or a scrubbed scene are ready.
    init(timeline: RunTimeline, waking wake: @escaping @Sendable () -> Void) {
        self.timeline = timeline
        self.wake = wake
        Thread.detachNewThread { [self] in
            let markers = simulating { timeline.allMarkers() }
            state.withLock { $0.markers = markers }
            wake()
        }
        let requested = requested
        Thread.detachNewThread { [weak self] in
            while true {
                requested.wait()
                guard let self else { return }  // the viewer is gone
                simulateRequestedScene()
            }
        }
    }

    deinit {
        requested.signal()  // lets the scrubbing thread end
    }

    /// The markers known so far: the expectations' at once, all of them once the run was marked.
    var markers: [RunTimeline.Marker] {
        state.withLock { $0.markers } ?? timeline.expectationMarkers
    }

    /// Whether the run's markers were all taken.
    var hasMarkedRun: Bool { state.withLock { $0.markersTaken } }

    /// All the markers, once, when the run has just been marked.
    func takeMarkers() -> [RunTimeline.Marker]? {
        state.withLock { state in
            guard let markers = state.markers, !state.markersTaken else { return nil }
            state.markersTaken = true
            return markers
        }
    }

    /// Asks for the scene at `time` of the run; it comes back through ``takeScene()``.
    func scrub(to time: VirtualTime) {
        let first = state.withLock { state in
            defer { state.request = time }
            return state.request == nil
        }
        if first { requested.signal() }
    }

    /// The scene simulated last, with its time, once.
    func takeScene() -> (time: VirtualTime, snapshot: SceneSnapshot?)? {
        state.withLock { state in
            defer { state.result = nil }
            return state.result
        }
    }

    /// `body`, alone if it simulates a run with command plugins.
    private func simulating<Result: Sendable>(_ body: () -> Result) -> Result {
        guard timeline.scenario.remotePlugins.contains(where: { $0.command != nil }) else { return body() }
        return programs.withLock { _ in body() }
    }

    private func simulateRequestedScene() {
        guard let time = state.withLock({ $0.request }) else { return }
        let snapshot = simulating { timeline.snapshot(at: time) }
        let newer = state.withLock { state in
            state.result = (time, snapshot)
            if state.request == time { state.request = nil }
            return state.request != nil
        }
        wake()
        if newer { requested.signal() }  // a scrub came while this one was simulated: it is next
    }
}
