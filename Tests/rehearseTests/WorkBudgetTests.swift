import Foundation
import IntegrationTestSupport
import Testing

/// Files inside every documented limit can still ask for months of simulated work: a run (and an
/// explore sequence) has a budget of events and invariant checks, a clear error when it is spent,
/// and a run's memory does not grow with its length.
@Suite struct WorkBudgetTests {
    /// A tilted photo: the display link ticks at 60 Hz for as long as it pans; two invariants.
    private static let panning = """
        name: long tilt
        plugins: [panner]
        invariants:
          - {name: not far left, check: scroll.contentOffset.x >= -100000}
          - {name: not far right, check: scroll.contentOffset.x <= 100000}
        steps:
          - motion: {rotationRate: {x: 0, y: 1, z: 0}, for: 10, hz: 1000}
          - wait: 999990
        """

    @Test func aRunStopsWhenItsBudgetIsSpent() throws {
        let file = try Rehearse.scenario(Self.panning)
        let clock = ContinuousClock()
        let start = clock.now
        let events = try Rehearse.run(["run", file.path, "--max-events", "20000"])
        #expect(events.status == 2, "\(events.output)")
        #expect(events.output.contains("\(file.path):8:5: error: the run needed more than 20000 events by "), "\(events.output)")
        #expect(events.output.contains("raise it with --max-events N if the work is meant"))
        // It ran, and stopped at the budget: not "INVALID ... nothing ran" (issue 37).
        #expect(
            events.output.contains("STOPPED \(file.path)")
                && events.output.contains("1 of them stopped at a budget: they ran up to it"),
            "\(events.output)")
        #expect(!events.output.contains("INVALID") && !events.output.contains("nothing ran"), "\(events.output)")
        let checks = try Rehearse.run(["run", file.path, "--max-invariant-checks", "20000"])
        #expect(checks.status == 2, "\(checks.output)")
        #expect(
            checks.output.contains("\(file.path):7:5: error: the run needed more than 20000 invariant checks by "),
            "\(checks.output)")
        #expect(checks.output.contains("raise it with --max-invariant-checks N"))
        // Each is about a second of a debug build's work; a million simulated seconds would be hours.
        #expect(clock.now - start < .seconds(60))
        let usage = try Rehearse.run(["run", file.path, "--max-events", "0"])
        #expect(usage.status == 2)
    }

    /// Issue 37: invariant checks are counted in the paths they read, so a `finite` rule of 100
    /// paths spends the budget 100 times as fast as one condition (in a release build a check of
    /// it cost 5.6 µs against a condition's 0.15 µs, and a file of 1,000 of them ran for minutes
    /// inside the budget). At 100,000 it stops within the first 1,000 events, the first second.
    @Test func anInvariantCostsThePathsItReads() throws {
        let paths = Array(repeating: "time", count: 100).joined(separator: ", ")
        let file = try Rehearse.scenario(
            Self.panning.replacingOccurrences(
                of:
                    "  - {name: not far left, check: scroll.contentOffset.x >= -100000}\n  - {name: not far right, check: scroll.contentOffset.x <= 100000}",
                with: "  - {name: finite, finite: [\(paths)]}"))
        let result = try Rehearse.run(["run", file.path, "--max-invariant-checks", "100000"])
        #expect(result.status == 2, "\(result.output)")
        let time = try #require(
            result.output.firstMatch(of: /needed more than 100000 invariant checks by ([0-9.]+) s simulated/)?.1)
        #expect((Double(time) ?? .infinity) < 2, "\(result.output)")
    }

    @Test func anExploreSequenceHasTheBudgetAndItsWaitsALimit() throws {
        let file = try Rehearse.scenario(
            """
            name: waits
            plugins: [panner]
            explore:
              actions: {wait: {weight: 5, between: [1, 2000]}}
            steps: []
            """)
        let out = file.deletingLastPathComponent().appendingPathComponent("failures").path
        let spent = try Rehearse.run(["explore", file.path, "--runs", "5", "--max-events", "100", "--out", out])
        #expect(spent.status == 2, "\(spent.output)")
        #expect(spent.output.contains("\(file.path): error: a sequence stopped: the run needed more than 100 events by "))
        #expect(
            spent.output.contains(" s simulated (seed 1), the budget of one run; raise it with --max-events N"), "\(spent.output)"
        )
        let long = try Rehearse.run(["explore", file.path, "--length", "600", "--runs", "1", "--out", out])
        #expect(long.status == 2)
        #expect(
            long.errorOutput.contains(
                "--length 600: 600 actions of waits up to 2000 s could wait 1200000 s; "
                    + "the waits of a sequence add up to at most 1000000 simulated seconds"), "\(long.errorOutput)")
    }

    /// The trace is streamed to its file and only the events that expectations count are kept: the
    /// peak memory of a run of 100,000 events is that of a short one (it grew by about 0.45 KB an
    /// event, 41 MB from 11,000 to 101,000 events, when every event and trace line was kept).
    @Test func aRunsMemoryDoesNotGrowWithItsLength() throws {
        func peakKilobytes(wait: Int) throws -> (Int, Int) {
            let file = try Rehearse.scenario(
                Self.panning.replacingOccurrences(of: "wait: 999990", with: "wait: \(wait)")
                    + "\n  - expect-event: {name: network, count: 0}\n")
            let trace = file.deletingLastPathComponent().appendingPathComponent("trace.jsonl")
            let measure = """
                import resource, subprocess, sys
                result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
                print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
                """
            let result = try Rehearse.python([
                "-c", measure, Rehearse.productsFolder.appendingPathComponent("rehearse").path,
                "run", file.path, "--trace", trace.path,
            ])
            let parts = result.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").count
            #expect(parts.first == 0, "\(result.output)\(result.errorOutput)")
            return (parts.last ?? .max, lines)
        }
        let (short, shortLines) = try peakKilobytes(wait: 10)
        let (long, longLines) = try peakKilobytes(wait: 1500)
        #expect(longLines > shortLines + 80_000, "\(shortLines) and \(longLines) events")
        #expect(long < short + 20_000, "\(short) KB for \(shortLines) events, \(long) KB for \(longLines)")
    }
}
