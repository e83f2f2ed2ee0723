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
/// When a file has several independent errors (steps, invariants), this is the first and
/// ``alsoFound`` holds the others, in the file's order, as a compiler reports them all.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// The file's other errors after this one (at most ``ScenarioLoader/maximumReportedErrors`` in all).
    public var alsoFound: [ScenarioError] = []

    /// The longest message kept: one that names what a file has (every node of a scene of
    /// thousands) stops there with `…`, so that 20 errors of a file stay small enough to print
    /// and to send as one D-Bus error reply.
    public static let maximumMessageLength = 2_000

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message.count > Self.maximumMessageLength ? message.prefix(Self.maximumMessageLength) + "…" : message
    }

    /// `file:line:column: error: message`, as compilers print, control characters escaped; one
    /// line for each error of the file.
    public var description: String {
        ([self.withoutOthers] + alsoFound).map { TerminalText.escape("\($0.location): error: \($0.message)") }.joined(
            separator: "\n")
    }

    private var withoutOthers: ScenarioError { ScenarioError(message, at: location) }
}

/// The errors of one file as it is read: each step and each invariant is read on its own, so one
/// that is wrong does not hide the next; what depends on an earlier part (the scene, the plugins)
/// still stops at the first error.
struct ScenarioErrors {
    private(set) var found: [ScenarioError] = []
    /// Whether reading stopped at ``ScenarioLoader/maximumReportedErrors`` with more to read.
    private var stoppedEarly = false

    /// What `read` returns, or nil with its error kept. Once ``ScenarioLoader/maximumReportedErrors``
    /// were found, nothing more is read.
    mutating func keep<Value>(_ read: () throws(ScenarioError) -> Value) -> Value? {
        guard found.count < ScenarioLoader.maximumReportedErrors else {
            stoppedEarly = true
            return nil
        }
        do {
            return try read()
        } catch {
            found.append(error)
            return nil
        }
    }

    /// Throws the first error found, carrying the others; the last says when reading stopped
    /// before the end.
    func throwIfAny() throws(ScenarioError) {
        guard var first = found.first else { return }
        var others = Array(found.dropFirst())
        if stoppedEarly {
            let note = " (reading stopped here: at most \(ScenarioLoader.maximumReportedErrors) errors are reported at once)"
            if others.isEmpty { first.message += note } else { others[others.count - 1].message += note }
        }
        first.alsoFound = others
        throw first
    }
}
