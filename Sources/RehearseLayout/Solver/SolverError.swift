/// Why the solver refused a request. The system is unchanged when this is thrown.
public enum SolverError: Error, Equatable, CustomStringConvertible {
    case duplicateConstraint(String)
    /// A required constraint contradicts the required constraints already there.
    case unsatisfiableConstraint(String)
    case unknownConstraint(String)
    case duplicateEditVariable(String)
    case unknownEditVariable(String)
    /// Edit variables cannot be required.
    case requiredEditVariable(String)
    /// A pivot found no row: the objective is unbounded (a bug if it ever shows).
    case internalError(String)

    public var description: String {
        switch self {
        case .duplicateConstraint(let name): "constraint \(name) is already in the system"
        case .unsatisfiableConstraint(let name): "required constraint \(name) contradicts the required constraints already active"
        case .unknownConstraint(let name): "constraint \(name) is not in the system"
        case .duplicateEditVariable(let name): "\(name) is already an edit variable"
        case .unknownEditVariable(let name): "\(name) is not an edit variable"
        case .requiredEditVariable(let name): "edit variable \(name) cannot be required"
        case .internalError(let reason): "solver error: \(reason)"
        }
    }
}
