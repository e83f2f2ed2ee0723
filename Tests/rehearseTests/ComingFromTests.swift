import Foundation
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

    /// Each row's Rehearse steps, on the page's scene, as a file: all of them pass.
    @Test func everyRowsStepsPassOnThePagesScene() throws {
        let text = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent(Self.page), encoding: .utf8)
        let scene = try #require(CodeBlocks(text).blocks.first { $0.language == "yaml" }).lines.joined(separator: "\n")
        let rows = try DocumentTableTests.table(in: Self.page, header: "| you want to | XCUITest")
        try #require(rows.count >= 15)
        var files: [String: String] = [:]
        for (index, row) in rows.enumerated() {
            let cell = try #require(row.last)
            let spans = Self.spans(in: cell)
            let keys = spans.filter { $0 == "settle: auto" }, steps = spans.filter { $0 != "settle: auto" }
            #expect(!steps.isEmpty, "row '\(row[0])' has no step")
            files[String(format: "row-%02d.yaml", index + 1)] = "name: \(row[0])\n" + keys.map { $0 + "\n" }.joined()
                + scene + "\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
        }
        let folder = try scenarioFolder(files)
        let result = try Rehearse.run(["run", folder.path])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.hasSuffix("scenarios: \(rows.count) passed, 0 failed\n"), "\(result.output)")
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
