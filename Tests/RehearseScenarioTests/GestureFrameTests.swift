import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// Issue 36: a gesture step pictured for the HTML report shows as its frames (``GestureFrame``),
/// at most one per ``ScenarioRunner/Rendering/gestureFrameInterval`` of simulated time, the first
/// and the last always, each with the step's fingers where they are then. The scene is
/// ``ElementStepTests/header``'s: a button, and a list (y 100 to 500) of 40 rows of 50 points.
@Suite struct GestureFrameTests {
    /// `steps` run as the HTML report runs them (a picture after each step), and with a trace.
    static func run(_ steps: String, picturing: Bool = true) throws -> ScenarioResult {
        let text = ElementStepTests.header + "steps:\n" + steps
        let scenario = try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(text.utf8), file: "frames.yaml")
        var runner = ScenarioRunner(registry: PluginRegistry([]), recordsTrace: true)
        if picturing { runner.rendering = .init(filmstripFrames: 0, picturesEachStep: true) }
        return runner.run(scenario)
    }

    static func seconds(_ value: Double) -> VirtualTime { VirtualTime.seconds(value) ?? .zero }

    static let interval = ScenarioRunner.Rendering.gestureFrameInterval

    @Test func aDragOnANodeAndAPinchShowTheirFramesWithTheirFingers() throws {
        let result = try Self.run(
            """
              - tap: button
              - drag: {on: list, by: [0, -120], duration: 0.3}
              - wait: 0.2
              - pinch: {center: [160, 300], scale: 2, duration: 0.25}

            """)
        #expect(result.stepPictures.map(\.frames.count) == [0, 7, 0, 6], "a tap and a wait are no gestures")
        // The drag from the list's visible centre (160, 300): 20 points a frame of 50 ms (60 Hz: 3 moves
        // of 6.67), lifted where it ends, after 0.3 s.
        let drag = result.stepPictures[1].frames
        #expect(drag.map(\.picture.time) == (0...6).map { Self.seconds(0.05 * Double($0)) })
        #expect(
            drag.map(\.fingers)
                == (0...6).map { step in
                    [FingerMark(id: 0, point: Point(x: 160, y: 300 - 20 * Double(step)), isLifting: step == 6)]
                })
        // The list follows the finger once the pan has begun (10 points): its content moved.
        #expect(drag.first?.picture.items.first { $0.id == "row5" }?.frame.minY == 350)
        #expect(try #require(drag.last?.picture.items.first { $0.id == "row5" }?.frame.minY) < 350)
        // The pinch from 0.5 s: two fingers 100 points apart moving to 200 apart, both lifting at the end.
        let pinch = result.stepPictures[3].frames
        #expect(pinch.map(\.picture.time) == (10...15).map { Self.seconds(0.05 * Double($0)) })
        #expect(
            pinch.map(\.fingers)
                == (0...5).map { step in
                    let half = 50 + 50 * Double(step) / 5
                    return [
                        FingerMark(id: 0, point: Point(x: 160 - half, y: 300), isLifting: step == 5),
                        FingerMark(id: 1, point: Point(x: 160 + half, y: 300), isLifting: step == 5),
                    ]
                })
    }

    /// The last frame is the step's end; a sample closer than the interval before it gives way.
    @Test func theLastFrameIsTheStepsEndNeverCloserThanTheIntervalToTheOneBefore() throws {
        let result = try Self.run(
            "  - drag: {from: [160, 400], to: [160, 200], duration: 0.12}\n  - long-press: {at: [30, 30], duration: 0.01}\n")
        #expect(result.stepPictures[0].frames.map(\.picture.time) == [.zero, Self.seconds(0.05), Self.seconds(0.12)])
        #expect(result.stepPictures[0].frames.last?.fingers == [FingerMark(id: 0, point: Point(x: 160, y: 200), isLifting: true)])
        // A step shorter than the interval: its first and last frames only.
        #expect(result.stepPictures[1].frames.map(\.picture.time) == [Self.seconds(0.12), Self.seconds(0.13)])
        #expect(result.stepPictures[1].frames.map { $0.fingers.map(\.isLifting) } == [[false], [true]])
    }

    /// A long gesture's frames are spread wider, at most the step's limit, evenly, the first and
    /// the last kept; a run's gesture frames stop at its limit, with a note, and later gesture
    /// steps show none (their step pictures stay).
    @Test func theLimitsHold() throws {
        let steps = (0..<20).map { _ in "  - long-press: {at: [30, 30], duration: 10}\n" }.joined()
        let result = try Self.run(steps)
        let perStep = ScenarioRunner.Rendering.maximumGestureFramesPerStep
        let perRun = ScenarioRunner.Rendering.maximumGestureFramesPerRun
        #expect(result.stepPictures.count == 20)
        for (index, step) in result.stepPictures.enumerated() where !step.frames.isEmpty {
            let times = step.frames.map(\.picture.time)
            #expect(times.count <= perStep && times.count > perStep / 2)
            #expect(times.first == Self.seconds(10 * Double(index)) && times.last == Self.seconds(10 * Double(index + 1)))
            let gaps = Set(zip(times.dropFirst(), times).map { $0 - $1 })
            #expect(gaps.count == 1 && gaps.first.map { $0 >= Self.interval } == true, "evenly spread: \(gaps)")
        }
        let counts = result.stepPictures.map(\.frames.count)
        let shown = counts.prefix { $0 > 0 }
        #expect(counts.reduce(0, +) <= perRun && counts.reduce(0, +) + counts[0] > perRun, "\(counts)")
        #expect(counts.dropFirst(shown.count).allSatisfy { $0 == 0 })
        #expect(
            result.notes.contains(
                "the report's gesture frames stop at frames.yaml:\(47 + shown.count):5: they would be more than \(perRun)"),
            "\(result.notes)")
    }

    /// `scroll-until-visible` shows its drags within the step's limit, each lift once: a drag
    /// starts as the one before lifts (the list at rest), and that frame shows the finger both
    /// lifting where the drag ended and down where the next starts.
    @Test func scrollUntilVisibleShowsItsDrags() throws {
        let result = try Self.run("  - scroll-until-visible: {node: row30, in: list}\n")
        let frames = result.stepPictures[0].frames
        #expect(frames.count <= ScenarioRunner.Rendering.maximumGestureFramesPerStep && frames.count > 10)
        #expect(frames.first?.fingers == [FingerMark(id: 0, point: Point(x: 160, y: 300), isLifting: false)])
        #expect(frames.last?.picture.time == result.simulatedTime)
        let lifts = frames.flatMap(\.fingers).filter(\.isLifting)
        #expect(lifts.count == result.trace.filter { $0.contains("\"name\":\"touch.ended\"") }.count && lifts.count == 7)
        #expect(lifts.allSatisfy { $0.point == Point(x: 160, y: 100) })
        #expect(
            frames.contains {
                $0.fingers == [
                    FingerMark(id: 0, point: Point(x: 160, y: 100), isLifting: true),
                    FingerMark(id: 0, point: Point(x: 160, y: 300), isLifting: false),
                ]
            })
    }

    /// Picturing the frames only reads: the trace is the same with or without them.
    @Test func theFramesChangeNoTrace() throws {
        let steps =
            "  - drag: {on: list, by: [0, -300], duration: 0.2}\n  - scroll-until-visible: {node: row35, in: list}\n"
            + "  - pinch: {on: button, scale: 0.5}\n  - wait: 1\n"
        let pictured = try Self.run(steps)
        let plain = try Self.run(steps, picturing: false)
        #expect(pictured.stepPictures.map { $0.frames.isEmpty } == [false, false, false, true])
        #expect(pictured.trace == plain.trace && !plain.trace.isEmpty)
    }
}
