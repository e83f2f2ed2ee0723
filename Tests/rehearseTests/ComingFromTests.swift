import Foundation
import IntegrationTestSupport
import Testing

/// docs/coming-from.md, "Coming from XCUITest, Flutter or Maestro" (issue 36): every row of its
/// tables runs as the page says it does.
@Suite struct ComingFromTests {
    static let page = "docs/coming-from.md"

    /// The code spans of a table cell, in order.
    static func spans(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The page's scene, the YAML block every row runs on.
    static func scene() throws -> String {
        let text = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent(page), encoding: .utf8)
        return try #require(CodeBlocks(text).blocks.first { $0.language == "yaml" }).lines.joined(separator: "\n")
    }

    /// Each row's Rehearse steps, on the page's scene, as a file: all of them pass.
    @Test func everyRowsStepsPassOnThePagesScene() throws {
        let scene = try Self.scene()
        let rows = try DocumentTableTests.table(in: Self.page, header: "| you want to | XCUITest")
        try #require(rows.count >= 15)
        var files: [String: String] = [:]
        for (index, row) in rows.enumerated() {
            let cell = try #require(row.last)
            let spans = Self.spans(in: cell)
            let keys = spans.filter { $0 == "settle: auto" }
            let steps = spans.filter { $0 != "settle: auto" }
            #expect(!steps.isEmpty, "row '\(row[0])' has no step")
            files[String(format: "row-%02d.yaml", index + 1)] =
                "name: \(row[0])\n" + keys.map { $0 + "\n" }.joined()
                + scene + "\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
        }
        let folder = try scenarioFolder(files)
        let result = try Rehearse.run(["run", folder.path])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.hasSuffix("scenarios: \(rows.count) passed, 0 failed\n"), "\(result.output)")
    }

    /// "The same words in Swift and Python": the steps column, row after row, is one passing
    /// scenario; the Python column, line after line, runs against `rehearse serve` with the scene
    /// loaded (its `assert`s included). The Swift column: RehearseTestingTests' ComingFromHarnessTests.
    @Test func theVocabularysStepsAndPythonLinesRun() throws {
        let rows = try DocumentTableTests.table(in: Self.page, header: "| scenario step | `PluginHarness`")
        try #require(rows.count >= 6 && rows.allSatisfy { $0.count == 3 })
        let steps = rows.map { Self.spans(in: $0[0]).joined() }
        let lines = rows.map { Self.spans(in: $0[2]).joined() }
        let scene = try Self.scene()
        let file = try Rehearse.scenario("name: vocabulary\n" + scene + "\nsteps:\n" + steps.map { "  - \($0)\n" }.joined())
        let run = try Rehearse.run(["run", file.path])
        #expect(run.status == 0, "\(run.output)\(run.errorOutput)")

        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual"])
        let script = bus.folder.appendingPathComponent("vocabulary.py")
        let literal = String(decoding: try JSONEncoder().encode("name: vocabulary\n" + scene + "\nsteps: []\n"), as: UTF8.self)
        try Data(
            ([
                "import sys; sys.path.insert(0, \"clients/python\")", "import rehearse",
                "session = rehearse.Simulator().default_session()", "session.load_scenario(\(literal))",
            ]
                + lines + ["print('done')"]).joined(separator: "\n").utf8
        ).write(to: script)
        let python = try bus.run("/usr/bin/env", ["python3", script.path])
        #expect(python.output == "done\n", "\(python.output)\(python.errorOutput)")
    }

    /// The commands of "Running the tests you want", on the bundled scenarios: each ends well
    /// (`--watch` once it has run them, on SIGINT).
    @Test func everyCommandRunsOnTheBundledScenarios() throws {
        let rows = try DocumentTableTests.table(in: Self.page, header: "| you want to run | XCUITest")
        try #require(rows.count == 5)
        for row in rows {
            let cell = try #require(row.last)
            let command = try #require(Self.spans(in: cell).first)
            let arguments = command.split(separator: " ").dropFirst().map(String.init)
            try #require(command.hasPrefix("rehearse run "))
            if arguments.contains("--watch") {
                let watching = try WatchingRun(arguments.filter { $0 != "run" && $0 != "--watch" })
                #expect(watching.wait(for: " failed\n", seconds: 120) != nil, "\(watching.text)")
                #expect(watching.text.contains(", 0 failed\n"), "\(watching.text)")
                #expect(watching.interrupt(seconds: 10) == 0)
            } else {
                let result = try Rehearse.run(arguments)
                #expect(result.status == 0, "\(command): \(result.output)\(result.errorOutput)")
                #expect(!result.output.isEmpty, "\(command) printed nothing")
            }
        }
    }
}
