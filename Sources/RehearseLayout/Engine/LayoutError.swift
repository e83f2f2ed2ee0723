/// Why constraints cannot lay a scene out. The layout is unchanged when this is thrown.
public enum LayoutError: Error, Equatable, CustomStringConvertible {
    case syntax(LayoutSyntaxError)
    /// A constraint names a view the scene does not have.
    case unknownView(String, constraint: String)
    /// The views of one constraint do not share a superview.
    case differentSuperviews(String, constraint: String)
    case unknownSet(String, known: [String])
    /// A value given to a moving metric no constraint names.
    case unknownMetric(String, known: [String])
    /// A required constraint contradicts the other active required constraints.
    case unsatisfiable(constraint: String)
    case solver(SolverError)

    public var description: String {
        switch self {
        case .syntax(let error): "\(error)"
        case .unknownView(let view, let constraint): "unknown view '\(view)' in '\(constraint)'"
        case .differentSuperviews(let views, let constraint):
            "views \(views) in '\(constraint)' must share a superview"
        case .unknownSet(let name, let known):
            "unknown constraint set '\(name)' (sets: \(Self.list(known)))"
        case .unknownMetric(let name, let known):
            "unknown moving metric '\(name)' (moving metrics: \(Self.list(known)))"
        case .unsatisfiable(let constraint): "required constraint '\(constraint)' contradicts the other active constraints"
        case .solver(let error): "\(error)"
        }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
