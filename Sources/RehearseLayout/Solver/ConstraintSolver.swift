/// An incremental Cassowary solver (Badros, Borning and Stuckey), following the Kiwi solver:
/// constraints are added and removed without rebuilding, edit variables take suggested values,
/// and the dual simplex restores feasibility after each change. Pivot ties are broken by symbol
/// age, so the same calls always give the same solution. The rows and the simplex are the
/// ``Tableau``'s; this class keeps which constraints and edit variables are in it.
public final class ConstraintSolver {
    /// A constraint in the system: its symbols and when it came (for a rebuild).
    private struct Entry {
        let tag: Tag
        let order: Int
    }

    private struct Edit {
        let tag: Tag
        let constraint: Constraint
        var constant: Double
    }

    private var tableau = Tableau()
    private var constraints: [Constraint: Entry] = [:]
    private var edits: [Variable: Edit] = [:]
    private var nextInsertion = 0

    public init() {}

    /// The number of constraints in the system.
    public var constraintCount: Int { constraints.count }

    /// Whether `constraint` is in the system.
    public func contains(_ constraint: Constraint) -> Bool { constraints[constraint] != nil }

    // MARK: Constraints

    /// Adds `constraint`, refusing a duplicate or a required constraint that cannot hold; a refused
    /// constraint leaves the system as it was.
    public func add(_ constraint: Constraint) throws(SolverError) {
        guard constraints[constraint] == nil else { throw .duplicateConstraint(constraint.description) }
        do {
            constraints[constraint] = Entry(tag: try tableau.insert(constraint), order: nextInsertion)
            nextInsertion += 1
        } catch {
            rebuild()
            throw error
        }
    }

    /// Starts over from the constraints and edit values that were accepted, in the order they came.
    /// Only a refused constraint needs this (the tableau may have pivoted before the refusal), so
    /// successful changes never pay for a copy.
    private func rebuild() {
        let accepted = constraints.sorted { $0.value.order < $1.value.order }.map(\.key)
        let savedEdits = edits.sorted {
            constraints[$0.value.constraint]?.order ?? 0 < constraints[$1.value.constraint]?.order ?? 0
        }
        (tableau, constraints, edits) = (Tableau(), [:], [:])
        for constraint in accepted {
            guard let tag = try? tableau.insert(constraint) else { continue }
            constraints[constraint] = Entry(tag: tag, order: constraints.count)
        }
        nextInsertion = constraints.count
        for (variable, edit) in savedEdits {
            guard let entry = constraints[edit.constraint] else { continue }
            edits[variable] = Edit(tag: entry.tag, constraint: edit.constraint, constant: 0)
            try? suggestValue(edit.constant, for: variable)
        }
    }

    /// Removes `constraint`.
    public func remove(_ constraint: Constraint) throws(SolverError) {
        guard let entry = constraints.removeValue(forKey: constraint) else {
            throw .unknownConstraint(constraint.description)
        }
        try tableau.remove(constraint, tag: entry.tag)
    }

    // MARK: Edit variables

    /// Makes `variable` take suggested values with `strength` (which cannot be required).
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable(variable.name) }
        guard strength < .required else { throw .requiredEditVariable(variable.name) }
        let constraint = Constraint(
            Expression(variable), .equal, Expression(), strength: strength, origin: "edit \(variable.name)")
        try add(constraint)
        guard let entry = constraints[constraint] else { throw .internalError("edit constraint vanished") }
        edits[variable] = Edit(tag: entry.tag, constraint: constraint, constant: 0)
    }

    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable(variable.name) }
        try remove(edit.constraint)
    }

    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

    /// Suggests a value for an edit variable and re-solves from the current solution.
    public func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard let edit = edits[variable] else { throw .unknownEditVariable(variable.name) }
        edits[variable]?.constant = value
        try tableau.suggest(value - edit.constant, tag: edit.tag)
    }

    /// Writes the solution into the variables' values.
    public func updateVariables() {
        tableau.updateVariables()
    }

    /// The solved value of `variable` (0 if no constraint names it), read without writing it into
    /// the variable: solvers that share variables (copies) each read their own.
    public func value(of variable: Variable) -> Double {
        tableau.value(of: variable)
    }

    /// A solver with this one's system and solution, changed apart from it from now on (the tableau
    /// is a value, copied on its first change). It shares the variables and constraints, which
    /// neither changes.
    public func copy() -> ConstraintSolver {
        let copy = ConstraintSolver()
        (copy.tableau, copy.constraints, copy.edits, copy.nextInsertion) = (tableau, constraints, edits, nextInsertion)
        return copy
    }
}
