import Foundation
import RehearseCore

extension ScenarioLoader {
    /// A set-up with no scene and no steps: `device` (nil: the default preset) and `plugins` with
    /// their default configuration, checked as a scenario file's would be. What `rehearse serve
    /// --device --plugins` and a D-Bus session's `device` and `plugins` set up.
    public func loadSetup(device: String?, plugins: [String], name: String = "serve") throws(ScenarioError) -> Scenario {
        var yaml = "name: \(FieldValue.string(name).jsonText)\n"
        if let device { yaml += "device: \(FieldValue.string(device).jsonText)\n" }
        if !plugins.isEmpty { yaml += "plugins: [\(plugins.map { FieldValue.string($0).jsonText }.joined(separator: ", "))]\n" }
        yaml += "steps: []\n"
        return try load(data: Data(yaml.utf8), file: "\(name) options")
    }
}
