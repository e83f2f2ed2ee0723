import ArgumentParser
import Foundation
import RehearseScenario

/// `rehearse schema`: the JSON Schema of scenario files, for editors.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of scenario files (steps, keys, devices, scenes, plugin configurations, events).",
        discussion: """
            For editors with the YAML language server: `rehearse schema > rehearse.schema.json`, then the first line of a \
            scenario file `# yaml-language-server: $schema=rehearse.schema.json`. It covers this rehearse's plugins; the \
            loader still checks what depends on the file itself (node ids, paths).
            """)

    func run() throws {
        let compact = ScenarioSchema.json(registry: Tool.registry)
        let object = try JSONSerialization.jsonObject(with: Data(compact.utf8))
        let pretty = try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: pretty, as: UTF8.self))
    }
}
