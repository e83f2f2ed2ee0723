import Foundation
import IntegrationTestSupport
import Testing

/// Issue 39, item 6: a remote plugin reads the scene through the paths it declares (`reads`, in
/// its registration and in its scenario entry), sent with every `Deliver` and `Wake`, secure text
/// redacted; a path that reads nothing, too many paths, or reads for a plugin that registered
/// without them are refused where they are written; `target-offset` fails the plugin anywhere but
/// in the answer to `scroll.willEndDragging`. The plugin is `reads_plugin.py`, a real program.
@Suite struct RemotePluginReadsTests {
    static let readsPlugin = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/reads_plugin.py")
        .path

    /// A run of `steps` with `plugin` (an item of `plugins:`) in a scene of a title (alpha 0.5), a
    /// secure password field, a button and a list; returns the result and the trace's lines.
    static func run(_ plugin: String, steps: String) throws -> (result: CommandResult, trace: [String], file: URL) {
        let file = try Rehearse.scenario(
            """
            name: a plugin that reads the scene
            scene:
              nodes:
                - {id: title, kind: label, frame: [20, 20, 280, 40], alpha: 0.5}
                - {id: password, kind: textField, frame: [20, 80, 280, 40], secure: true}
                - {id: offset-button, kind: button, frame: [20, 140, 280, 40]}
                - {id: list, kind: scrollView, frame: [0, 200, 320, 300], contentSize: [320, 1000]}
            plugins:
              \(plugin)
            steps:
            \(steps)
            """)
        let trace = file.deletingLastPathComponent().appendingPathComponent("trace.jsonl")
        let result = try Rehearse.runWithin(["run", file.path, "--trace", trace.path])
        let lines = (try? String(contentsOf: trace, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        return (result, lines, file)
    }

    @Test func aPluginGetsItsReadsAndTheScenariosWithEveryCallSecureTextRedacted() throws {
        let (result, trace, _) = try Self.run(
            "- {id: reads, command: [python3, \(Self.readsPlugin), title.alpha, firstResponder], "
                + "reads: [password.text, list.contentOffset.y]}",
            steps: """
                  - tap: title
                  - type: {into: password, text: hunter2}
                  - tap: title
                  - set: {title.alpha: 0.25}
                  - wait: 0.2
                  - expect: {firstResponder: null}
                  - expect-event: {name: reads.seen, count: 4}
                  - expect-no-event: plugin.failed
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let seen = trace.filter { $0.contains(#""name":"reads.seen""#) }
        // The values as they were at each call (two taps, then their wakes after the set): the
        // title's alpha, then the set one; the secure text redacted; no first responder, so that
        // path is left out.
        let before = #"{"values":{"list.contentOffset.y":0,"password.text":"<redacted>","title.alpha":0.5}}"#
        let after = #"{"values":{"list.contentOffset.y":0,"password.text":"<redacted>","title.alpha":0.25}}"#
        #expect(
            seen.count == 4 && seen[0].contains(before) && seen[1].contains(before) && seen[2].contains(after)
                && seen[3].contains(after),
            "\(seen)")
        #expect(!trace.contains { $0.contains("hunter2") })
    }

    /// A scenario's `reads:` path is at most ``ScenarioLimits/remoteReadPathLength`` Unicode
    /// scalars, as a plugin's own are at most 200 bytes: one just past it is refused where it is
    /// written, before the program starts (a 300-scalar path naming a node was read before).
    @Test(arguments: [(200, true), (201, false)])
    func aScenarioReadsPathHasALimit(length: Int, accepted: Bool) throws {
        let id = String(repeating: "n", count: length - ".frame.x".count)
        let before = "  - {id: reads, command: [python3, \(Self.readsPlugin)], reads: ["
        let file = try Rehearse.scenario(
            """
            name: a long path to read
            scene:
              nodes:
                - {id: \(id), kind: label, frame: [20, 20, 280, 40]}
            plugins:
            \(before)\(id).frame.x]}
            steps:
              - tap: \(id)
              - expect-event: {name: reads.seen, fields: {values: {\(id).frame.x: 20}}, count: 1}
            """)
        let result = try Rehearse.runWithin(["run", file.path])
        if accepted {
            #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        } else {
            #expect(result.status == 2)
            #expect(
                result.output.contains(
                    "\(file.lastPathComponent):6:\(before.count + 1): error: a path a plugin reads is at most "
                        + "200 Unicode scalars (ScenarioLimits.remoteReadPathLength), found 201"), "\(result.output)")
        }
    }

    @Test(arguments: [
        ("{offsetOnWake: false}", "offset-button", "Deliver(tap)"),
        ("{offsetOnWake: true}", "title", "Wake(later)"),
    ])
    func targetOffsetOutsideTheAnswerToWillEndDraggingFailsThePlugin(configuration: String, button: String, call: String) throws {
        let (result, trace, _) = try Self.run(
            "- {id: reads, command: [python3, \(Self.readsPlugin)], configuration: \(configuration)}",
            steps: """
                  - tap: \(button)
                  - wait: 0.2
                  - expect-event: {name: plugin.failed, fields: {plugin: reads}}
                  - expect-no-event: scroll.didEndDecelerating
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let failure = try #require(trace.first { $0.contains(#""name":"plugin.failed""#) })
        #expect(
            failure.contains(
                "effect 2 (target-offset): target-offset answers Deliver(scroll.willEndDragging) only, "
                    + "as targetContentOffset is set in scrollViewWillEndDragging; this answers \(call)"), "\(failure)")
    }

    /// A `target-offset` in the answer to `scroll.willEndDragging` that names another node than
    /// the scroll view released fails the plugin, and the list rests where it was let go (88.89:
    /// the first 11.11 points of the finger's 100 were the pan's threshold), not at 100.
    @Test func targetOffsetForAnotherScrollViewFailsThePlugin() throws {
        let (result, trace, _) = try Self.run(
            "- {id: reads, command: [python3, \(Self.readsPlugin)], configuration: {offsetTarget: title}}",
            steps: """
                  - drag: {on: list, by: [0, -100], hold: 0.1}
                  - wait: 2
                  - expect-event: {name: plugin.failed, fields: {plugin: reads}}
                  - expect: {list.contentOffset.y: {approx: 88.889, within: 0.001}}
                """)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let failure = try #require(trace.first { $0.contains(#""name":"plugin.failed""#) })
        #expect(failure.contains("effect 1 (target-offset): 'title' is not the scroll view released now"), "\(failure)")
    }

    @Test func aPathDeclaredTwiceIsRefusedAtRegistration() throws {
        let refusal = try Self.refusal(
            "- {id: reads, command: [python3, \(Self.readsPlugin), title.alpha, title.alpha]}", at: "reads,")
        #expect(
            refusal.said.contains(refusal.position + "plugin 'reads' registered wrongly: it reads 'title.alpha' twice"),
            "\(refusal)")
    }

    /// What `rehearse run` says of `plugin`, which is refused, with `FILE:9:COLUMN` for the file and
    /// the column where `marker` starts in `plugin` (its line is the file's ninth, indented by two).
    static func refusal(_ plugin: String, at marker: String) throws -> (said: String, position: String) {
        let (result, _, file) = try Self.run(plugin, steps: "  - wait: 0.1")
        #expect(result.status == 2, "\(result.output)\(result.errorOutput)")
        let column = try #require(plugin.range(of: marker)).lowerBound.utf16Offset(in: plugin) + 3
        return (
            (result.output + result.errorOutput).replacingOccurrences(of: file.path, with: "FILE"), "FILE:9:\(column): error: "
        )
    }

    @Test func aReadThatReadsNothingIsRefusedWhereItIsWritten() throws {
        let scenarios = try Self.refusal(
            "- {id: reads, command: [python3, \(Self.readsPlugin)], reads: [title.alpha, lst.contentOffset.y]}",
            at: "lst.")
        #expect(
            scenarios.said.contains(
                scenarios.position + "plugin 'reads' reads path 'lst.contentOffset.y': 'lst' is not a node, "
                    + "a plugin or a system path (did you mean 'list'?)"), "\(scenarios)")
        // A path of its own is refused at its id.
        let own = try Self.refusal("- {id: reads, command: [python3, \(Self.readsPlugin), title.alpa]}", at: "reads,")
        #expect(
            own.said.contains(
                own.position
                    + "plugin 'reads' reads path 'title.alpa': node 'title' has no property 'alpa' (did you mean 'alpha'?)"),
            "\(own)")
    }

    @Test func readsForAPluginThatRegisteredWithoutThemAreRefused() throws {
        let refusal = try Self.refusal(
            "- {id: steady, command: [python3, \(RemotePluginFaultTests.faultPlugin), well], reads: [title.alpha]}",
            at: "[title")
        #expect(
            refusal.said.contains(
                refusal.position + "plugin 'steady' registered without reads (RegisterPlugin's sixth argument), "
                    + "so it takes none from the scenario"), "\(refusal)")
    }

    @Test func moreReadsThanTheLimitAreRefused() throws {
        let scenarios = (0..<30).map { "list.frame.y\($0)" }
        let together = try Self.refusal(
            "- {id: reads, command: [python3, \(Self.readsPlugin), \"40\"], reads: [\(scenarios.joined(separator: ", "))]}",
            at: "[list")
        #expect(
            together.said.contains(
                together.position + "plugin 'reads' reads 70 paths; a plugin reads at most 64 (ScenarioLimits.remoteReads)"),
            "\(together)")
        let registered = try Self.refusal("- {id: reads, command: [python3, \(Self.readsPlugin), \"65\"]}", at: "reads,")
        #expect(
            registered.said.contains(
                registered.position + "plugin 'reads' registered wrongly: its reads: more than 64 strings (the limit); "
                    + "a plugin reads at most 64 paths (ScenarioLimits.remoteReads) of at most 200 bytes"), "\(registered)")
    }
}
