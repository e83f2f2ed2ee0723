import Foundation

extension RemotePluginDeclaration {
    /// Why `path` cannot be a path a plugin reads whatever the scene, or nil: it holds a control
    /// character (C0, DEL, C1), which no name has and which would drive the terminal of whoever
    /// reads a message that names the path. Checked where a path is declared: a registration
    /// (`RegisterPlugin`'s `reads`) and a scenario's `reads:`.
    public static func problem(inRead path: String) -> String? {
        guard let scalar = path.unicodeScalars.first(where: \.isControlCharacter) else {
            return nil
        }
        return "a path a plugin reads holds no control character (C0, DEL, C1), found U+\(String(format: "%04X", scalar.value))"
    }
}

extension Simulation {
    /// Throws ``RemoteReadsError/unreadable(plugin:_:)`` for the first of `reads`, the paths the
    /// plugin `plugin` reads, that reads nothing in the scene now (an unknown node or property, a
    /// path of no names): checked when the plugin is installed, and by a session before it answers
    /// the plugin's `RegisterPlugin`.
    public func checkReads(_ reads: [ValuePath], of plugin: String) throws(RemoteReadsError) {
        for path in reads {
            do { _ = try value(at: path) } catch { throw .unreadable(plugin: plugin, error) }
        }
    }
}
