import Foundation
import RehearseCore
import Testing
@testable import RehearseScenario

@Suite struct LoaderTests {
    /// The step table of Scenarios/README.md lists exactly the steps the parser reads (the parser
    /// switches over the same names, and the runner over the actions they make).
    @Test func theDocumentedStepsAreExactlyTheParsedOnes() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .appending(path: "../../../Scenarios/README.md").standardized, encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Steps\n").dropFirst().first)
            .components(separatedBy: "\n#").first ?? ""
        let documented = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { $0.dropFirst(3).prefix { $0 != "`" } }.map(String.init)
        #expect(Set(documented) == Set(StepParser.stepNames))
    }

}
