import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse run --shard K/N`: N shards together run exactly the files of one unsharded run, each
/// once, and their JSON Lines reports merge by concatenation.
@Suite struct ShardTests {
    private func files(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        var base = ProcessInfo.processInfo.environment
        for name in ["REHEARSE_SHARD", "CI_NODE_INDEX", "CIRCLE_NODE_INDEX", "BUILDKITE_PARALLEL_JOB", "JOB_COMPLETION_INDEX"] {
            base[name] = nil
        }
        base.merge(environment) { $1 }
        let result = try Rehearse.launch(
            Rehearse.productsFolder.appendingPathComponent("rehearse"),
            ["run", "Scenarios", "--format", "jsonl"] + arguments, environment: base)
        #expect(result.status == 0, "\(result.errorOutput)")
        return try result.output.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["file"] as? String)
        }
    }

    @Test(arguments: [1, 2, 3, 7])
    func shardsTogetherRunTheSuiteOnce(count: Int) throws {
        let whole = try files([])
        #expect(whole.count > 40)
        var merged: [String] = []
        for index in 1...count { merged += try files(["--shard", "\(index)/\(count)"]) }
        #expect(merged.sorted() == whole.sorted())
        #expect(Set(merged).count == merged.count, "no file runs twice")
    }

    /// The CI systems' variables give the same parts as `--shard` (GitLab counts from 1, CircleCI,
    /// Buildkite and Kubernetes from 0).
    @Test func theEnvironmentNamesTheShard() throws {
        let second = try files(["--shard", "2/3"])
        #expect(try files([], environment: ["REHEARSE_SHARD": "2/3"]) == second)
        #expect(try files([], environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]) == second)
        #expect(try files([], environment: ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"]) == second)
        #expect(try files([], environment: ["JOB_COMPLETION_INDEX": "1", "REHEARSE_SHARD_COUNT": "3"]) == second)
        #expect(
            try files(["--shard", "2/3"], environment: ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"]) == second,
            "the option wins over the environment")
    }

    @Test func aWrongShardIsAUsageError() throws {
        for arguments in [["--shard", "0/3"], ["--shard", "4/3"], ["--shard", "1/0"], ["--shard", "two"]] {
            let result = try Rehearse.run(["run", "Scenarios"] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CIRCLE_NODE_INDEX"] = "3"
        environment["CIRCLE_NODE_TOTAL"] = "3"
        let result = try Rehearse.launch(
            Rehearse.productsFolder.appendingPathComponent("rehearse"), ["run", "Scenarios"],
            environment: environment)
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("CIRCLE_NODE_INDEX=3 with CIRCLE_NODE_TOTAL=3 is not a shard"))
    }

    /// Numbers that fit the variables' format but not a shard (the largest Int, the smallest) are a
    /// usage error naming the variable and the limit, for `run` and `explore` alike, never an overflow.
    @Test(arguments: [
        ("CI_NODE_INDEX", "CI_NODE_TOTAL"), ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL"),
        ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT"), ("JOB_COMPLETION_INDEX", "REHEARSE_SHARD_COUNT"),
    ])
    func extremeNumbersInTheVariablesAreUsageErrors(index: String, count: String) throws {
        let extremes = [
            ("9223372036854775807", "3"), ("-9223372036854775808", "3"), ("1", "9223372036854775807"),
            ("9223372036854775807", "9223372036854775807"),
        ]
        for (indexValue, countValue) in extremes {
            var environment = ProcessInfo.processInfo.environment
            for name in [
                "REHEARSE_SHARD", "CI_NODE_INDEX", "CIRCLE_NODE_INDEX", "BUILDKITE_PARALLEL_JOB", "JOB_COMPLETION_INDEX",
            ] {
                environment[name] = nil
            }
            environment[index] = indexValue
            environment[count] = countValue
            for command in [["run", "Scenarios/gateway"], ["explore", "Scenarios/gateway/network-gate.yaml", "--runs", "1"]] {
                let result = try Rehearse.launch(
                    Rehearse.productsFolder.appendingPathComponent("rehearse"), command,
                    environment: environment)
                #expect(result.status == 2, "\(command[0]) \(index)=\(indexValue) \(count)=\(countValue): \(result.errorOutput)")
                #expect(result.errorOutput.contains("\(index)=\(indexValue) with \(count)=\(countValue) is not a shard"))
                #expect(result.errorOutput.contains("<= 10000)"))
            }
        }
    }
}
