import Foundation
import RehearseCore
import RehearsePlugins
import Testing

@testable import RehearseScenario

/// Every file under `Malformed/` must be refused, with the plugins that ship, with exactly the
/// message and position that `MalformedExpectations.tsv` gives for it (file, tab,
/// `file:line:column: error: message`). A list the code holds is written as its placeholder
/// (`{plugins}`, `{devices}`, `{steps}`) and filled in from the code, so that adding a plugin, a
/// preset or a step changes no expectation.
@Suite struct MalformedCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let lists: [String: [String]] = [
        "{plugins}": shippedPlugins.descriptors.map(\.id),
        "{devices}": Device.presetList.map(\.name),
        "{steps}": StepParser.StepName.allCases.map(\.rawValue),
    ]
    static let expectations: [(file: String, error: String)] = {
        let table = (try? String(contentsOf: folder.appendingPathComponent("MalformedExpectations.tsv"), encoding: .utf8)) ?? ""
        return table.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            let error = lists.reduce(parts[1]) { $0.replacingOccurrences(of: $1.key, with: $1.value.joined(separator: ", ")) }
            return (parts[0], error)
        }
    }()

    @Test func theCorpusHasAtLeastFortyFilesAndEachHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("Malformed").path)
        #expect(files.count >= 40)
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }

    @Test(arguments: expectations.map(\.file))
    func eachMalformedFileGivesItsExactError(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("Malformed").appendingPathComponent(file))
        let expected = try #require(Self.expectations.first { $0.file == file }?.error)
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioLoader(registry: shippedPlugins).load(data: data, file: file)
        }
        #expect(error?.description == expected)
    }

    @Test func aTenMegabyteFileIsRefusedBeforeParsing() {
        let line = "  - wait: 0.001 # padding padding padding padding padding padding padding\n"
        let text = "name: big\nsteps:\n" + String(repeating: line, count: 10 * 1024 * 1024 / line.utf8.count + 1)
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioLoader(registry: shippedPlugins).load(data: Data(text.utf8), file: "big.yaml")
        }
        #expect(
            error?.description
                == "big.yaml:1:1: error: file is \(text.utf8.count) bytes; scenario files are limited to 1048576 bytes (1 MiB)")
    }
}
