/// A place in a scenario file.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based.
    public var line: Int
    /// 1-based, counted in Unicode scalars.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A scenario file that cannot be loaded: where, and what was expected.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: error: message`, as compilers print, control characters escaped.
    public var description: String { TerminalText.escape("\(location): error: \(message)") }
}
