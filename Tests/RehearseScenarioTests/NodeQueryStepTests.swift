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
              case .inject(.focus(let focus)) = scenario.steps[2].action else {
            Issue.record("ids load as injected events: \(scenario.steps.map(\.action))")
            return
        }
        #expect(tap.target == "login")
        #expect(second.target == "cancel")
        #expect(focus.target == "username")
    }

    @Test func aQueryLoadsAsAQueryFoundWhenTheStepRuns() throws {
        let scenario = try Self.load("  - tap: {text: Log in}\n  - type: {into: {label: Password}, text: hunter2}\n")
        guard case .injectQueried(let tap) = scenario.steps[0].action, case .injectQueried(let type) = scenario.steps[1].action else {
            Issue.record("queries load as queried events")
            return
        }
        #expect(tap == QueriedEvent(query: .text("Log in"), kind: .tap))
        #expect(type == QueriedEvent(query: .label("Password"), kind: .text("hunter2")))
    }

    /// Logs in by what the screen shows: the taps and the typing reach the nodes the queries find.
    @Test func stepsFindTheirNodesByTextLabelKindAndIndex() throws {
        let failures = try Self.failures("""
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
        let failures = try Self.failures("""
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
        #expect(failure.actual.hasPrefix(#"no node matches {text: "Log In"}; nearest: 'login' (button, text "Log in", traits [button]) at [20, 200, 100, 44]"#))
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
        let failures = try Self.failures("""
              - type: {into: password, text: hunter2}
              - tap: {text: hunter2}

            """)
        let failure = try #require(failures.first)
        #expect(failure.actual.hasPrefix("no node matches {text: "))
        #expect(!"\(failure.subject) \(failure.expected) \(failure.actual)".contains("hunter2"))
    }

    @Test func aQuerysFormIsCheckedWhenTheFileLoads() {
        let cases: [(String, String)] = [
            ("  - tap: {txt: Log in}\n",
             "q.yaml:9:11: error: unknown key 'txt' in a node query (did you mean 'text'?); expected one of: id, text, label, kind, traits, index"),
            ("  - tap: {text: \"\"}\n", "q.yaml:9:17: error: tap: field 'text' must not be empty"),
            ("  - tap: {kind: knob}\n", "q.yaml:9:17: error: tap: field 'kind' must be one of view, label, textField, button, scrollView, imageView, shape, found 'knob'"),
            ("  - tap: {kind: button, index: 10000}\n", "q.yaml:9:32: error: tap: field 'index' must be 0 to 9999 (ScenarioLimits.queryIndex), found 10000"),
            ("  - tap: {index: 1}\n", "q.yaml:9:10: error: tap: a node query needs at least one of id, text, label, kind, traits"),
            ("  - focus: {traits: [butten]}\n", "q.yaml:9:22: error: focus: field 'traits.0' must be a trait, found 'butten' (did you mean 'button'?); traits: "
                + AccessibilityTraits.named.map(\.name).joined(separator: ", ")),
            ("  - tap: {text: null, kind: button}\n", "q.yaml:9:17: error: tap: text must not be null"),
            ("  - tap: {id: logn}\n", "q.yaml:9:15: error: unknown node 'logn' (did you mean 'login'?); nodes: root, username, password, login, cancel"),
            ("  - resign: {kind: label}\n", "q.yaml:9:13: error: resign: no node can ever match {kind: label}: no node matches {kind: label}; "
                + "nearest: 'username' (textField, label \"Username\") at [20, 100, 280, 30]; 'password' (textField, secure, label \"Password\") at [20, 140, 280, 30]; "
                + "'login' (button, text \"Log in\", traits [button]) at [20, 200, 100, 44]; 'cancel' (button, text \"Cancel\", traits [button]) at [180, 200, 100, 44]; "
                + "nothing adds nodes to this scene (it has no plugins)"),
            ("  - long-press: {target: {text: Log in, kind: shape}, duration: 1}\n", "no node can ever match {text: \"Log in\", kind: shape}"),
        ]
        for (steps, message) in cases {
            let error = Self.error(steps)
            #expect(error.hasPrefix(message) || (message.hasPrefix("no node") && error.contains(message)), "\(steps) gave \(error)")
        }
    }
}
