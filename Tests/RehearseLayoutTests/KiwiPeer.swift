/// The peer ``SolverPeerTests`` compares ``ConstraintSolver`` with: a Python program that runs
/// solver scripts through kiwisolver (PyPI, C++ core; `scripts/install-deps` installs it), given to
/// `python3 -c` with the scripts' JSON file as its argument.
///
/// A script is `{"variables": n, "steps": [...]}`; a step is one of `{"add": id, "terms": [[variable,
/// coefficient], ...], "constant": c, "relation": "==", "strength": "required" or [strong, medium,
/// weak, weight]}` (terms + constant relation 0), `{"remove": id}`, `{"edit": variable, "strength":
/// [...]}`, `{"suggest": variable, "value": x}`, `{"removeEdit": variable}` and `{"check": true}`. It
/// prints, for each script, `{"accepted": [whether each add was accepted], "checks": [[each
/// variable's value at each check]]}`, as one JSON list.
enum KiwiPeer {
    static let program = """
        import json
        import sys

        import kiwisolver as kiwi


        def strength(value):
            return kiwi.strength.required if value == "required" else kiwi.strength.create(*value)


        def run(script):
            variables = [kiwi.Variable(f"v{i}") for i in range(script["variables"])]
            solver = kiwi.Solver()
            constraints, edits, accepted, checks = {}, {}, [], []
            for step in script["steps"]:
                if "add" in step:
                    expression = sum((c * variables[v] for v, c in step["terms"]), step["constant"])
                    relation = {"==": expression == 0, "<=": expression <= 0, ">=": expression >= 0}[step["relation"]]
                    constraint = relation | strength(step["strength"])
                    try:
                        solver.addConstraint(constraint)
                        constraints[step["add"]] = constraint
                        accepted.append(True)
                    except kiwi.UnsatisfiableConstraint:
                        accepted.append(False)
                        # Kiwi keeps part of a refused constraint in its tableau (the row its artificial
                        # variable pivoted in); start over from what was accepted, as ConstraintSolver does.
                        solver = kiwi.Solver()
                        for kept in constraints.values():
                            solver.addConstraint(kept)
                        for variable, (edit_strength, value) in edits.items():
                            solver.addEditVariable(variables[variable], edit_strength)
                            solver.suggestValue(variables[variable], value)
                elif "remove" in step:
                    solver.removeConstraint(constraints.pop(step["remove"]))
                elif "edit" in step:
                    solver.addEditVariable(variables[step["edit"]], strength(step["strength"]))
                    edits[step["edit"]] = (strength(step["strength"]), 0.0)
                elif "suggest" in step:
                    solver.suggestValue(variables[step["suggest"]], step["value"])
                    edits[step["suggest"]] = (edits[step["suggest"]][0], step["value"])
                elif "removeEdit" in step:
                    solver.removeEditVariable(variables[step["removeEdit"]])
                    del edits[step["removeEdit"]]
                else:
                    solver.updateVariables()
                    checks.append([v.value() for v in variables])
            return {"accepted": accepted, "checks": checks}


        def main():
            with open(sys.argv[1]) as handle:
                scripts = json.load(handle)
            json.dump([run(script) for script in scripts], sys.stdout)


        if __name__ == "__main__":
            main()
        """
}
