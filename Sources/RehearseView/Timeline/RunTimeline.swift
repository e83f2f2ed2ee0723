import Foundation
import RehearseCore
import RehearseScenario

/// A loaded scenario's run as the page's timeline shows it: its length, its events and
/// expectations marked, and the scene at any time of it, simulated again from the start (the same
/// scenario gives the same run, so the picture at a time is exact). Whatever simulates the run
/// (marking events, scrubbing) takes time that grows with the run, so ``RunTimelineWorker`` does it
/// off the service's thread.
struct RunTimeline: Sendable {
    /// A moment marked on the timeline.
    struct Marker: Sendable {
        enum Kind: String, Sendable {
            case event, expectation, failure
        }
        var time: Double
        var kind: Kind
        var label: String
    }

    /// The most markers sent to a page (ticks are never marked).
    static let maximumMarkers = 2_000

    let scenario: Scenario
    let registry: PluginRegistry
    let duration: VirtualTime
    /// The expectations' moments, read from the steps without simulating anything.
    let expectationMarkers: [Marker]

    init(scenario: Scenario, registry: PluginRegistry) {
        self.scenario = scenario
        self.registry = registry
        duration = scenario.duration
        expectationMarkers = Array(
            Self.expectationTimes(scenario).map { Marker(time: $0.time.seconds, kind: .expectation, label: $0.label) }
                .prefix(Self.maximumMarkers))
    }

    /// Runs the scenario once to mark its events and failures beside its expectations: as long as
    /// the run takes to simulate.
    func allMarkers() -> [Marker] {
        let result = ScenarioRunner(registry: registry, recordsTrace: true).run(scenario)
        var markers = expectationMarkers
        for line in result.trace {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["name"] as? String, name != "tick", let time = object["time"] as? Double
            else { continue }
            markers.append(Marker(time: time, kind: .event, label: name))
        }
        if case .failed(let failures) = result.outcome {
            markers += failures.map { Marker(time: $0.time.seconds, kind: .failure, label: "\($0.subject): \($0.actual)") }
        }
        return Array(markers.sorted { $0.time < $1.time }.prefix(Self.maximumMarkers))
    }

    /// When each `expect`, `expect-event`, `expect-no-event` and `expect-picture` step runs, from the steps' clock.
    private static func expectationTimes(_ scenario: Scenario) -> [(time: VirtualTime, label: String)] {
        var clock = VirtualTime.zero
        var times: [(VirtualTime, String)] = []
        for step in scenario.steps {
            clock = step.action.clock(after: clock)
            switch step.action {
            case .expect(let expectations): times.append((clock, "expect " + expectations.map(\.path).joined(separator: ", ")))
            case .expectEvent(let expectation): times.append((clock, "expect-event \(expectation.name)"))
            case .expectNoEvent(let expectation): times.append((clock, "expect-no-event \(expectation.name)"))
            case .expectPicture(let name, _): times.append((clock, "expect-picture \(name)"))
            case .expectVisible(let node, let visible):
                times.append((clock, "\(visible ? "expect-visible" : "expect-not-visible") \(node)"))
            case .expectAccessible: times.append((clock, step.action.summary))
            case .inject, .injectQueried, .schedule, .motionStream, .wait, .advance, .keyboardShow, .keyboardHide, .set, .animate,
                .activate, .snapshot, .touchStream, .scrollUntilVisible, .settle, .waitUntil:
                continue  // not an expectation
            }
        }
        return times
    }

    /// The scene at `time` of the run (clamped to the run).
    func snapshot(at time: VirtualTime) -> SceneSnapshot? {
        var runner = ScenarioRunner(registry: registry)
        runner.stopTime = min(max(time, .zero), duration)
        return runner.run(scenario).finalSnapshot
    }

    /// The timeline as the page's messages carry it, with `markers`.
    func fields(markers: [Marker]) -> FieldValue {
        .dictionary([
            "name": .string(scenario.name),
            "duration": .double(duration.seconds),
            "markers": .array(
                markers.map {
                    .dictionary(["time": .double($0.time), "kind": .string($0.kind.rawValue), "label": .string($0.label)])
                }),
        ])
    }
}
