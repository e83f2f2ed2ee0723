/// A field dictionary that does not have the shape an event or a configuration needs.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The dotted path of the offending field (`frame.height`), empty for the dictionary itself.
    public var path: String
    /// What was wrong.
    public var problem: Problem

    /// The ways a field can be wrong.
    public enum Problem: Equatable, Sendable {
        /// A required field is absent.
        case missing
        /// The field holds a value of another type; `expected` names the type wanted.
        case wrongType(expected: String, found: String)
        /// The field has the right type but a value outside what is allowed.
        case invalidValue(String)
        /// The field is not one the event or configuration knows.
        case unknown(known: [String])
        /// The field is not known, and it is likely a misspelling of this one, which is missing.
        case misspelt(of: String)
    }

    /// Creates an error for the field at `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        let field = path.isEmpty ? "the value" : "field '\(path)'"
        switch problem {
        case .missing:
            return "\(field) is missing"
        case .wrongType(let expected, let found):
            return "\(field) must be \(expected), found \(found)"
        case .invalidValue(let reason):
            return path.isEmpty ? reason : "\(field) \(reason)"
        case .unknown(let known):
            let list = known.isEmpty ? "none" : known.sorted().joined(separator: ", ")
            let name = String(path.split(separator: ".").last ?? "")
            return "\(field) is not known\(Suggestion.hint(for: name, among: known)); known: \(list)"
        case .misspelt(let intended):
            return "\(field) is not known (did you mean '\(intended)'?)"
        }
    }

    /// This error, or, when it says a field is missing and `given` holds beside it a field of a
    /// likely misspelt name (`txt` for `text`, by ``Suggestion``), an error naming that one: the
    /// user wrote it, and the missing field is what they meant.
    public func namingMisspelling(in given: Fields) -> FieldError {
        guard problem == .missing else { return self }
        var parts = path.split(separator: ".").map(String.init)
        guard let missing = parts.popLast() else { return self }
        var level = given
        for part in parts {
            guard case .dictionary(let next)? = level[part] else { return self }
            level = next
        }
        guard let written = Suggestion.closest(to: missing, among: level.keys.filter { $0 != missing }.sorted()) else {
            return self
        }
        return FieldError(path: (parts + [written]).joined(separator: "."), problem: .misspelt(of: missing))
    }
}
