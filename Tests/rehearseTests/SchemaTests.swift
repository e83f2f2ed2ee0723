import Foundation
import Testing

/// `rehearse schema` against a validator nobody here wrote (Python's jsonschema, Draft 7): every
/// bundled scenario is valid, and every file of the malformed corpus whose fault is in its form is
/// not. The rest of the corpus is faulty in what only the loader can know.
@Suite struct SchemaTests {
    /// Malformed files the schema accepts, by why: their fault depends on the file's own scene,
    /// plugins, clock or layout, or on YAML or numbers JSON Schema cannot see.
    static let faultsOnlyTheLoaderSees: Set<String> = [
        // the scene, its constraint sets and paths
        "duplicate-node.yaml", "unknown-node.yaml", "unknown-parent.yaml", "unknown-path-node.yaml", "unknown-path-property.yaml",
        "type-into-label.yaml", "set-wrong-type.yaml", "unknown-constraint-set.yaml", "contradictory-constraints.yaml",
        "vfl-syntax-error.yaml", "explore-unknown-tap-node.yaml", "invariant-unknown-path.yaml", "invariant-ordered-string.yaml",
        // what a path holds (an ordering needs a number)
        "ordering-of-text.yaml", "ordering-against-text.yaml", "ordering-of-a-frame.yaml",
        // the installed plugins' events and their fields
        "emit-unknown-event.yaml", "emit-missing-field.yaml", "emit-wrong-field-type.yaml",
        // the steps' clock, and relations between values
        "at-in-the-past.yaml", "explore-bad-wait-range.yaml", "explore-waits-too-long.yaml", "invariant-listed-twice.yaml",
        // a YAML parser keeps one of two equal keys; JSON Schema cannot refuse NaN
        "duplicate-key.yaml", "nan-expected-value.yaml", "nan-wait.yaml",
    ]

    /// Each file's verdict ("valid", "invalid: at PATH: WHY", "unreadable"), by its path.
    private func check(_ files: [String]) throws -> [String: String] {
        let schema = try Rehearse.run(["schema"])
        #expect(schema.status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schemaFile = folder.appendingPathComponent("rehearse.schema.json")
        try Data(schema.output.utf8).write(to: schemaFile)
        let script = Rehearse.packageRoot.appendingPathComponent("Tests/rehearseTests/schema_check.py").path
        // Debian's Python: python3-jsonschema and python3-yaml are installed for it.
        let result = try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/python3"), [script, schemaFile.path] + files)
        #expect(result.status == 0, "\(result.errorOutput)")
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let (verdict, rest) = (line.prefix { $0 != " " }, line.drop { $0 != " " }.dropFirst())
            let path = String(rest.prefix { $0 != ":" })
            verdicts[path] = verdict + (rest.contains(":") ? String(rest.drop { $0 != ":" }) : "")
        }
        return verdicts
    }

    private func yamlFiles(under folder: String) throws -> [String] {
        let root = Rehearse.packageRoot.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".yaml") }.sorted().map { root.appendingPathComponent($0).path }
    }

    @Test func everyBundledScenarioIsValid() throws {
        let files = try yamlFiles(under: "Scenarios")
        #expect(files.count >= 40)
        let verdicts = try check(files)
        #expect(verdicts.count == files.count)
        for (file, verdict) in verdicts { #expect(verdict == "valid", "\(file): \(verdict)") }
    }

    @Test func everyMalformedFileWhoseFaultIsInItsFormIsInvalid() throws {
        let verdicts = Dictionary(uniqueKeysWithValues: try check(try yamlFiles(under: "Tests/RehearseScenarioTests/Malformed"))
            .map { (URL(fileURLWithPath: $0.key).lastPathComponent, $0.value) })
        let accepted = Set(verdicts.filter { $0.value == "valid" }.keys)
        #expect(accepted == Self.faultsOnlyTheLoaderSees)
        let refused = verdicts.filter { $0.value.hasPrefix("invalid") }
        #expect(refused.count >= 40, "\(refused.count) refused")
        #expect(refused["unknown-step.yaml"] != nil && refused["infinite-wait.yaml"] != nil && refused["approx-without-within.yaml"] != nil)
    }
}
