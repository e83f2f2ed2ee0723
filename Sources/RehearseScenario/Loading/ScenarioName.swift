import Foundation
import RehearseCore

extension ScenarioLoader {
    /// The `name:` of the scenario file at `path`, read without checking the rest of the file or
    /// starting its command plugins (what `rehearse run --filter` matches); nil when the file
    /// cannot be read or parsed (within the loader's limits), or names no scenario.
    public static func name(ofFile path: String) -> String? {
        guard let data = try? BoundedFile.read(path, limit: ScenarioLimits.fileBytes),
            let root = try? YAMLDocument.parse(data, file: path),
            let entries = try? root.mapping("a scenario")
        else { return nil }
        return entries.first { $0.key == "name" }.flatMap { try? $0.value.string("name") }
    }
}
