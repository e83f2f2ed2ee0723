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
            return "\(field) is not known (known: \(list))"
        }
    }
}
