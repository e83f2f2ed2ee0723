import ArgumentParser
import RehearseCore

/// `rehearse events`: the event vocabulary with fields.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every event name with its fields.")

    func run() {
        let plugins = Tool.registry.events
        let width = (EventDescription.builtin + plugins).map(\.name.count).max() ?? 0
        for description in EventDescription.builtin + plugins {
            let name = description.name + String(repeating: " ", count: width - description.name.count)
            print("\(name)  \(description.fields)")
            print(String(repeating: " ", count: width) + "  \(description.summary)")
        }
    }
}
