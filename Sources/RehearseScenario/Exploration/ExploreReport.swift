import RehearseCore
import RehearseSupport

/// The outcome of one `rehearse explore`, for machines: one JSON object (a line, so shards'
/// reports merge by concatenation) or JUnit XML with one test case.
public struct ExploreReport: Sendable {
    public var scenario: String
    /// The shard explored, `K/N`.
    public var shard: String
    public var sequences: Int
    public var seconds: Double
    public var events: [String]
    public var vocabularySize: Int
    public var pluginStates: [String]
    /// Declared plugin state values no sequence reached (``ExploreCoverage/neverReached``).
    public var neverReached: [String]
    /// The failure as found, shrunk, and the file written, if an invariant broke.
    public var failure: (found: Explorer.Failure, shrunk: Explorer.Failure, file: String)?
    /// The shrunk actions as the written file's steps (``Explorer/steps(_:)``: secure text masked).
    public var shrunkShown: [String]

    /// Throws only if the shrunk actions can no longer run (their set-up's plugins fail to start).
    public init(
        scenario: String, shard: String, sequences: Int, seconds: Double, coverage: ExploreCoverage,
        failure: (found: Explorer.Failure, shrunk: Explorer.Failure, file: String)?, explorer: Explorer
    ) throws {
        self.scenario = scenario
        self.shard = shard
        self.sequences = sequences
        self.seconds = seconds
        events = coverage.eventNames
        vocabularySize = coverage.vocabularySize
        pluginStates = coverage.pluginStates
        neverReached = coverage.neverReached
        self.failure = failure
        shrunkShown = try failure.map { try explorer.steps($0.shrunk.actions).map(\.description) } ?? []
    }

    /// The report as one line of JSON, keys sorted.
    public var jsonLine: String {
        var fields: Fields = [
            "scenario": .string(scenario), "shard": .string(shard), "sequences": .int(Int64(sequences)),
            "seconds": .double(seconds), "status": .string(failure == nil ? "passed" : "failed"),
            "coverage": [
                "events": .array(events.map(FieldValue.string)), "vocabulary": .int(Int64(vocabularySize)),
                "pluginStates": .array(pluginStates.map(FieldValue.string)),
                "neverReached": .array(neverReached.map(FieldValue.string)),
            ],
        ]
        if let (found, shrunk, file) = failure {
            let invariant = shrunk.invariant
            fields["failure"] = [
                "invariant": .string(invariant.name), "owner": .string(invariant.owner), "actual": .string(invariant.actual),
                "expected": .string(invariant.expected), "seed": .int(Int64(bitPattern: found.seed)),
                "time": .double(shrunk.time.seconds), "actions": .int(Int64(found.actions.count)),
                "shrunk": .array(shrunkShown.map(FieldValue.string)), "file": .string(file),
            ]
        }
        return FieldValue.dictionary(fields).jsonText
    }

    /// JUnit XML: one test case named after the scenario, failed by a broken invariant.
    public var junit: String {
        let failed = failure == nil ? 0 : 1
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="rehearse explore" tests="1" failures="\#(failed)" errors="0" time="\#(seconds)">"# + "\n"
        xml += #"  <testsuite name="explore" tests="1" failures="\#(failed)" errors="0" skipped="0" time="\#(seconds)">"# + "\n"
        let attributes =
            #"name="\#(XMLText.escape("\(scenario) (\(sequences) sequences, shard \(shard))"))" classname="explore" time="\#(seconds)""#
        guard let (found, shrunk, file) = failure else {
            return xml + "    <testcase \(attributes)/>\n  </testsuite>\n</testsuites>\n"
        }
        let invariant = shrunk.invariant
        let message =
            "invariant '\(invariant.name)' (\(invariant.owner)) broke in seed \(found.seed) at \(shrunk.time) s: "
            + "\(invariant.actual), expected \(invariant.expected)"
        let body = "shrunk to \(shrunk.actions.count) actions, written to \(file):\n" + shrunkShown.joined(separator: "\n")
        xml += "    <testcase \(attributes)>\n"
        xml += #"      <failure message="\#(XMLText.escape(message))" type="invariant">\#(XMLText.escape(body))</failure>"# + "\n"
        return xml + "    </testcase>\n  </testsuite>\n</testsuites>\n"
    }
}
