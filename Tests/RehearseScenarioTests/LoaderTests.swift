import Foundation
import RehearseCore
import Testing

@testable import RehearseScenario

@Suite struct LoaderTests {
    /// The step table of Scenarios/README.md lists exactly the steps the parser reads (the parser
    /// switches over the same names, and the runner over the actions they make).
    @Test func theDocumentedStepsAreExactlyTheParsedOnes() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath)
                .appending(path: "../../../Scenarios/README.md").standardized, encoding: .utf8)
        let section =
            try #require(readme.components(separatedBy: "\n## Steps\n").dropFirst().first)
            .components(separatedBy: "\n#").first ?? ""
        let documented = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { $0.dropFirst(3).prefix { $0 != "`" } }.map(String.init)
        #expect(Set(documented) == Set(StepParser.stepNames))
    }

    private func errors(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader(registry: PluginRegistry([])).load(data: Data(yaml.utf8), file: "f.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// Issue 25's attack: reading stops at 20 errors and says so on the last; the invariants'
    /// errors are kept when `steps` is not even a list.
    @Test func readingStopsAtTwentyErrorsAndSaysSo() throws {
        let steps = (0..<25).map { "  - tapp: \($0)" }.joined(separator: "\n")
        let many = try #require(errors("name: many\nsteps:\n\(steps)\n"))
        #expect(many.alsoFound.count == ScenarioLoader.maximumReportedErrors - 1)
        #expect(many.alsoFound.last?.message.hasSuffix("(reading stopped here: at most 20 errors are reported at once)") == true)
        #expect(!many.message.contains("reading stopped"))
        let notAList = try #require(
            errors(
                """
                name: not a list
                invariants: [{name: a, check: nobody.frame.y > 0}, {name: b, check: none.alpha > 0}]
                steps: 5
                """))
        #expect(([notAList] + notAList.alsoFound).map(\.location.line) == [2, 2, 3])
    }

    /// Issue 24: the nesting pre-check ended a double-quoted string at an escaped quote (`\"`), so
    /// the brackets after it counted as nesting and a valid file was refused as "deeper than 64 levels".
    @Test func anEscapedQuoteDoesNotEndAString() throws {
        let brackets = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let scenario = try ScenarioLoader(registry: PluginRegistry([])).load(
            data: Data((#"name: "a \" \#(brackets) b""# + "\nsteps: []\n").utf8), file: "f.yaml")
        #expect(scenario.name == "a \" \(brackets) b")
        let deep = try #require(errors("name: 'it''s'\nsteps: \(brackets)\n"))
        #expect(deep.message == "nesting is deeper than 64 levels")
    }

    /// Issue 25's attack: 20 errors that each listed 5,000 node ids made 14.8 MB of output and a
    /// D-Bus reply past the peer limit; a message stops at `maximumMessageLength` characters.
    @Test func aMessageThatListsAWholeSceneStopsAtItsLimit() throws {
        let nodes = (0..<400).map { "    - {id: node-with-a-long-name-\($0), kind: view, frame: [0, 0, 1, 1]}" }.joined(
            separator: "\n")
        let error = try #require(errors("name: big\nscene:\n  nodes:\n\(nodes)\nsteps:\n  - tap: nobody\n"))
        #expect(error.message.hasPrefix("unknown node 'nobody'"))
        #expect(error.message.count == ScenarioError.maximumMessageLength + 1 && error.message.hasSuffix("…"))
    }
}
