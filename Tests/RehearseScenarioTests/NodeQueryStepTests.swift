import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

/// Steps that name a node by a query: what they load into, what they refuse when the file loads,
/// and how they find (or fail to find) their node when they run.
@Suite struct NodeQueryStepTests {
    static let header = """
        name: queries
        scene:
          nodes:
            - {id: username, kind: textField, frame: [20, 100, 280, 30], accessibilityLabel: Username}
            - {id: password, kind: textField, frame: [20, 140, 280, 30], accessibilityLabel: Password, secure: true}
            - {id: login, kind: button, frame: [20, 200, 100, 44], text: Log in}
            - {id: cancel, kind: button, frame: [180, 200, 100, 44], text: Cancel}
        steps:

        """

    static func load(_ steps: String, registry: PluginRegistry = PluginRegistry([])) throws -> Scenario {
        try ScenarioLoader(registry: registry).load(data: Data((header + steps).utf8), file: "q.yaml")
    }

    static func error(_ steps: String) -> String {
        do {
            _ = try load(steps)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    static func failures(_ steps: String) throws -> [Failure] {
        let result = ScenarioRunner(registry: PluginRegistry([])).run(try load(steps))
        if case .failed(let failures) = result.outcome { return failures }
        return []
    }

    @Test func anIDStaysAnEventInjectedAsBefore() throws {
        let scenario = try Self.load("  - tap: login\n  - tap: {id: cancel}\n  - focus: username\n")
        guard case .inject(.tap(let tap)) = scenario.steps[0].action, case .inject(.tap(let second)) = scenario.steps[1].action,
            case .inject(.focus(let focus)) = scenario.steps[2].action
        else {
            Issue.record("ids load as injected events: \(scenario.steps.map(\.action))")
            return
        }
        #expect(tap.target == "login")
        #expect(second.target == "cancel")
        #expect(focus.target == "username")
    }

    @Test func aQueryLoadsAsAQueryFoundWhenTheStepRuns() throws {
        let scenario = try Self.load("  - tap: {text: Log in}\n  - type: {into: {label: Password}, text: hunter2}\n")
        guard case .injectQueried(let tap) = scenario.steps[0].action, case .injectQueried(let type) = scenario.steps[1].action
        else {
            Issue.record("queries load as queried events")
            return
        }
        #expect(tap == QueriedEvent(query: .text("Log in"), kind: .tap))
        #expect(type == QueriedEvent(query: .label("Password"), kind: .text("hunter2")))
    }

    /// Logs in by what the screen shows: the taps and the typing reach the nodes the queries find.
    @Test func stepsFindTheirNodesByTextLabelKindAndIndex() throws {
        let failures = try Self.failures(
            """
              - tap: {label: Username}
              - type: {into: {label: Username}, text: ada}
              - return: {kind: textField, index: 0}
              - focus: {label: Password}
              - type: {into: {kind: textField, index: 1}, text: secret}
              - resign: {label: Password}
              - expect: {firstResponder: null, username.text: ada}
              - tap: {kind: button, index: 1}
              - expect-event: {name: tap, fields: {target: cancel}}
              - long-press: {target: {text: Log in}, duration: 0.6}
              - expect-event: {name: gesture.longPress, fields: {target: login}}

            """)
        #expect(failures.map { "\($0.location) \($0.subject): \($0.actual)" } == [])
    }

    /// A query is found as the scene is when the step runs: `set` gives the button its text first.
    @Test func aQueryFindsTheSceneAsItIsWhenTheStepRuns() throws {
        let failures = try Self.failures(
            """
              - set: {cancel.text: Back}
              - tap: {text: Back}
              - expect-event: {name: tap, fields: {target: cancel}}

            """)
        #expect(failures.isEmpty)
    }

    @Test func aQueryThatFindsNothingFailsTheStepWithTheNearestNodesAndWhereTheyAre() throws {
        let failures = try Self.failures("  - wait: 0.1\n  - tap: {text: Log In}\n")
        let failure = try #require(failures.first)
        #expect(failures.count == 1)
        #expect(failure.location.description == "q.yaml:10:5")
        #expect(failure.subject == #"find {text: "Log In"}"#)
        #expect(
            failure.actual.hasPrefix(
                #"no node matches {text: "Log In"}; nearest: 'login' (button, text "Log in", traits [button]) at [20, 200, 100, 44]"#
            ))
    }

    @Test func aQueryThatFindsSeveralWithoutAnIndexFailsListingThem() throws {
        let failure = try #require(try Self.failures("  - tap: {kind: button}\n").first)
        #expect(failure.location.description == "q.yaml:9:5")
        #expect(failure.actual.hasPrefix("2 nodes match {kind: button}; give index: 0 to 1"))
        #expect(failure.actual.contains("'login'") && failure.actual.contains("'cancel'"))
    }

    /// Ranking the nearest nodes compares the query with every node: only a run's first 20 misses
    /// do it, so 10,000 steps that find nothing cost no more than 20 of them.
    @Test func onlyTheFirstMissesOfARunRankTheNearestNodes() throws {
        let misses = try Self.failures(String(repeating: "  - tap: {text: Nope}\n", count: ScenarioExecution.rankedMisses + 2))
        #expect(misses.count == ScenarioExecution.rankedMisses + 2)
        #expect(misses.prefix(ScenarioExecution.rankedMisses).allSatisfy { $0.actual.contains("; nearest: ") })
        #expect(misses.suffix(2).map(\.actual) == Array(repeating: #"no node matches {text: "Nope"}"#, count: 2))
    }

    /// The password field holds what was typed; a query for that text finds nothing, and the
    /// failure does not show it.
    @Test func aSecureFieldsTextIsNeverFoundNorShown() throws {
        let failures = try Self.failures(
            """
              - type: {into: password, text: hunter2}
              - tap: {text: hunter2}

            """)
        let failure = try #require(failures.first)
        #expect(failure.actual.hasPrefix("no node matches {text: "))
        #expect(!"\(failure.subject) \(failure.expected) \(failure.actual)".contains("hunter2"))
    }

    @Test func aQuerysFormIsCheckedWhenTheFileLoads() {
        let cases: [(String, String)] = [
            (
                "  - tap: {txt: Log in}\n",
                "q.yaml:9:11: error: unknown key 'txt' in a node query (did you mean 'text'?); expected one of: id, text, label, kind, traits, index"
            ),
            ("  - tap: {text: \"\"}\n", "q.yaml:9:17: error: tap: field 'text' must not be empty"),
            (
                "  - tap: {kind: knob}\n",
                "q.yaml:9:17: error: tap: field 'kind' must be one of view, label, textField, button, scrollView, imageView, shape, found 'knob'"
            ),
            (
                "  - tap: {kind: button, index: 10000}\n",
                "q.yaml:9:32: error: tap: field 'index' must be 0 to 9999 (ScenarioLimits.queryIndex), found 10000"
            ),
            (
                "  - tap: {index: 1}\n",
                "q.yaml:9:10: error: tap: a node query needs at least one of id, text, label, kind, traits"
            ),
            (
                "  - focus: {traits: [butten]}\n",
                "q.yaml:9:22: error: focus: field 'traits.0' must be a trait, found 'butten' (did you mean 'button'?); traits: "
                    + AccessibilityTraits.named.map(\.name).joined(separator: ", ")
            ),
            ("  - tap: {text: null, kind: button}\n", "q.yaml:9:17: error: tap: text must not be null"),
            (
                "  - type: {into: {label: Username}, text: \(String(repeating: "a", count: ScenarioLimits.textLength + 1))}\n",
                "q.yaml:9:43: error: type: field 'text' must be at most 10000 Unicode scalars (ScenarioLimits.textLength), found 10001"
            ),
            (
                "  - tap: {id: logn}\n",
                "q.yaml:9:15: error: unknown node 'logn' (did you mean 'login'?); nodes: root, username, password, login, cancel"
            ),
            (
                "  - resign: {kind: label}\n",
                "q.yaml:9:13: error: resign: no node can ever match {kind: label}: no node matches {kind: label}; "
                    + "nearest: 'username' (textField, label \"Username\") at [20, 100, 280, 30]; 'password' (textField, secure, label \"Password\") at [20, 140, 280, 30]; "
                    + "'login' (button, text \"Log in\", traits [button]) at [20, 200, 100, 44]; 'cancel' (button, text \"Cancel\", traits [button]) at [180, 200, 100, 44]; "
                    + "nothing adds nodes to this scene (it has no plugins)"
            ),
            (
                "  - long-press: {target: {text: Log in, kind: shape}, duration: 1}\n",
                "no node can ever match {text: \"Log in\", kind: shape}"
            ),
            ("  - tap: {id: login, kind: label}\n", "no node can ever match {id: \"login\", kind: label}"),
            ("  - tap: {id: root, kind: view}\n", "no node can ever match {id: \"root\", kind: view}"),
        ]
        for (steps, message) in cases {
            let error = Self.error(steps)
            #expect(
                error.hasPrefix(message) || (message.hasPrefix("no node") && error.contains(message)), "\(steps) gave \(error)")
        }
    }

    /// A scene of `nodes` labels that all say `x`, and `steps` times `step`.
    static func crowd(nodes: Int, steps: Int, _ step: String) -> String {
        "name: crowd\nscene:\n  nodes:\n"
            + (0..<nodes).map { "    - {id: n\($0), kind: label, frame: [0, \($0 % 500), 10, 10], text: x}\n" }.joined()
            + "steps:\n" + String(repeating: "  - \(step)\n", count: steps)
    }

    /// Checking at load that a query can match looks a node or a kind up: it does not search (and
    /// put in reading order) the scene for each step: 2,000 queries of a 2,000-node scene took
    /// 17.5 s to load in a debug build when each did, 0.7 s now.
    @Test func checkingAtLoadThatQueriesCanMatchDoesNotSearchTheSceneForEach() throws {
        let yaml = Self.crowd(nodes: 3_000, steps: 3_000, "tap: {kind: label, text: x, index: 0}")
        let clock = ContinuousClock()
        let start = clock.now
        _ = try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(yaml.utf8), file: "crowd.yaml")
        #expect(clock.now - start < .seconds(15))
    }

    /// Each query reads the scene's nodes (and the matches' ancestors to order several): a run's
    /// queries have a budget of nodes read, and a run past it stops at the step it reached, naming
    /// the budget and the option that raises it (10,000 steps ordering a 10,000-node scene would
    /// run for minutes).
    @Test func aRunsQueriesHaveABudgetOfNodesRead() throws {
        var runner = ScenarioRunner(registry: PluginRegistry([]))
        runner.budget = WorkBudget(maximumQueriedNodes: 1_000)
        let scenario = try ScenarioLoader(registry: PluginRegistry([])).load(
            data: Data(Self.crowd(nodes: 100, steps: 10, "tap: {text: x, index: 0}").utf8), file: "crowd.yaml")
        let result = runner.run(scenario)
        guard case .stopped(let error) = result.outcome else {
            Issue.record("not stopped: \(result.outcome)")
            return
        }
        // Each step reads the 100 nodes, then the 100 matches and the root above each: the fourth passes 1,000.
        #expect(
            "\(error)".hasPrefix(
                "crowd.yaml:108:5: error: the run needed more than 1000 nodes read by node queries and accessibility checks by 0 s simulated"
            ),
            "\(error)")
        #expect("\(error)".contains("raise it with --max-queried-nodes N"))
        runner.budget = WorkBudget()
        guard case .passed = runner.run(scenario).outcome else {
            Issue.record("the default budget stops ten queries of 100 nodes")
            return
        }
    }
}
