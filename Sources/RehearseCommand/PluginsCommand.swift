import ArgumentParser
import RehearseCore

/// `rehearse plugins`: ids, summaries and configuration keys with their defaults.
struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the behaviour plugins with their scenes and configuration keys (with defaults).")

    func run() {
        if Tool.registry.descriptors.isEmpty { print("no plugins are registered in this build") }
        for descriptor in Tool.registry.descriptors {
            print("\(descriptor.id): \(descriptor.summary)")
            if let scene = descriptor.scene { print("  scene \(scene.name): \(scene.summary)") }
            for key in descriptor.defaultConfiguration.keys.sorted() {
                print("  \(key): \(descriptor.defaultConfiguration[key]?.jsonText ?? "")")
            }
        }
    }
}
