import RehearseCore
import RehearseTesting
import Testing

@testable import RehearseLayout

private func term(_ variable: Variable, _ coefficient: Double = 1) -> Expression { Expression([(variable, coefficient)]) }
private func constant(_ value: Double) -> Expression { Expression(constant: value) }

@Suite struct SolverTests {
    @Test func equalitiesAndInequalitiesSolve() throws {
        let solver = ConstraintSolver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(term(x) + term(y), .equal, constant(20)))
        try solver.add(Constraint(term(x), .greaterThanOrEqual, constant(15)))
        try solver.add(Constraint(term(x), .equal, term(y), strength: .weak))
        solver.updateVariables()
        #expect(abs(x.value - 15) < 1e-9)
        #expect(abs(y.value - 5) < 1e-9)
    }

    /// Auto Layout: the higher priority wins a conflict; a required constraint beats both.
    @Test func strongerConstraintsWinConflicts() throws {
        let solver = ConstraintSolver()
        let width = Variable("width")
        try solver.add(Constraint(term(width), .equal, constant(100), strength: .weak))
        try solver.add(Constraint(term(width), .equal, constant(200), strength: .strong))
        solver.updateVariables()
        #expect(abs(width.value - 200) < 1e-9)
        try solver.add(Constraint(term(width), .lessThanOrEqual, constant(150), strength: .priority(750)))
        solver.updateVariables()
        // priority 750 maps to strong × 1.5, above plain strong (1.0).
        #expect(abs(width.value - 150) < 1e-9)
        try solver.add(Constraint(term(width), .equal, constant(50)))
        solver.updateVariables()
        #expect(abs(width.value - 50) < 1e-9)
    }

    @Test func removingAConstraintRestoresThePreviousSolution() throws {
        let solver = ConstraintSolver()
        let x = Variable("x")
        try solver.add(Constraint(term(x), .equal, constant(10), strength: .medium))
        solver.updateVariables()
        let before = x.value
        let pin = Constraint(term(x), .greaterThanOrEqual, constant(40))
        try solver.add(pin)
        solver.updateVariables()
        #expect(abs(x.value - 40) < 1e-9)
        try solver.remove(pin)
        solver.updateVariables()
        #expect(abs(x.value - before) < 1e-9)
        #expect(throws: SolverError.unknownConstraint(pin.description)) { try solver.remove(pin) }
    }

    @Test func anUnsatisfiableRequiredConstraintIsRefusedAndChangesNothing() throws {
        let solver = ConstraintSolver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(term(x), .equal, term(y) + 10))
        try solver.add(Constraint(term(y), .equal, constant(5)))
        let contradiction = Constraint(term(x), .equal, constant(3), origin: "x == 3")
        #expect(throws: SolverError.unsatisfiableConstraint("x == 3")) { try solver.add(contradiction) }
        #expect(!solver.contains(contradiction))
        #expect(solver.constraintCount == 2)
        try solver.add(Constraint(term(x), .lessThanOrEqual, constant(100)))
        solver.updateVariables()
        #expect(abs(x.value - 15) < 1e-9 && abs(y.value - 5) < 1e-9)
    }

    @Test func editVariablesFollowSuggestions() throws {
        let solver = ConstraintSolver()
        let left = Variable("left")
        let width = Variable("width")
        let right = Variable("right")
        try solver.add(Constraint(term(right), .equal, term(left) + term(width)))
        try solver.add(Constraint(term(width), .greaterThanOrEqual, constant(10)))
        try solver.addEditVariable(left, strength: .strong)
        try solver.addEditVariable(right, strength: .strong)
        #expect(solver.hasEditVariable(left) && !solver.hasEditVariable(width))
        try solver.suggestValue(20, for: left)
        try solver.suggestValue(120, for: right)
        solver.updateVariables()
        #expect(abs(width.value - 100) < 1e-9)
        // right - left < 10 cannot hold: the required minimum width wins over the strong edits.
        try solver.suggestValue(25, for: right)
        solver.updateVariables()
        #expect(width.value >= 10 - 1e-9)
        #expect(throws: SolverError.requiredEditVariable("width")) { try solver.addEditVariable(width, strength: .required) }
        #expect(throws: SolverError.unknownEditVariable("width")) { try solver.suggestValue(1, for: width) }
    }

    /// Random satisfiable systems: pick values first, then write required constraints that those
    /// values satisfy; the solution must satisfy every one within 1e-6.
    @Test(arguments: 0..<25)
    func randomSatisfiableSystemsAreSolved(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 1)
        let variables = (0..<20).map { Variable("v\($0)") }
        let truth = variables.map { _ in Double.random(in: -500...500, using: &random) }
        let solver = ConstraintSolver()
        var required: [Constraint] = []
        for index in 0..<40 {
            let picks = (0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<variables.count, using: &random)
            }
            var expression = Expression()
            var value = 0.0
            for pick in picks {
                let coefficient = Double(Int.random(in: -4...4, using: &random)) + 0.5
                expression = expression + term(variables[pick], coefficient)
                value += coefficient * truth[pick]
            }
            let relation: Constraint.Relation = [.equal, .lessThanOrEqual, .greaterThanOrEqual][index % 3]
            let slack = relation == .equal ? 0 : Double.random(in: 0...50, using: &random)
            let bound = relation == .lessThanOrEqual ? value + slack : value - slack
            let constraint = Constraint(expression, relation, constant(bound))
            try solver.add(constraint)
            required.append(constraint)
        }
        for (variable, value) in zip(variables, truth) {
            try solver.add(
                Constraint(
                    term(variable), .equal, constant(value + Double.random(in: -100...100, using: &random)), strength: .weak))
        }
        solver.updateVariables()
        for constraint in required {
            let lhs = constraint.expression.terms.reduce(constraint.expression.constant) {
                $0 + $1.coefficient * $1.variable.value
            }
            switch constraint.relation {
            case .equal: #expect(abs(lhs) <= 1e-6)
            case .lessThanOrEqual: #expect(lhs <= 1e-6)
            case .greaterThanOrEqual: #expect(lhs >= -1e-6)
            }
        }
    }
}
