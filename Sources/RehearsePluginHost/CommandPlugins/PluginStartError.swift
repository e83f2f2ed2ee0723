/// Why a command plugin could not be started or did not register: the set-up is wrong.
public struct PluginStartError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
