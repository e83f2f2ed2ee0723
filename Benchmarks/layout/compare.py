#!/usr/bin/env python3
"""Rehearse's Cassowary solver against kiwisolver (C++ core) on the same random constraint systems,
in the same run, per operation: time to add every constraint (and solve), time to suggest the edit
values of 20 rounds (each re-solved by the dual simplex), time to write the solution into the
variables after each round (updateVariables); and whether the solutions agree within 1e-6.

    cd Benchmarks && swift build -c release --product LayoutSolverComparison
    pip install kiwisolver && python3 layout/compare.py

Systems are random but seeded and shaped like layouts: n constraints over n/2 variables, each a
sum of 1 to 3 terms relating a variable to neighbours at most 10 apart with coefficients ±1, ±0.5
or ±2 (a view against the views next to it); 30% required (written so that a hidden assignment satisfies them, so the system is satisfiable), the
rest strong, medium or weak with random targets; every variable also has a weak stay, so the
optimum is determined. Ten variables are then edited (strong) through 20 rounds of suggestions.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import kiwisolver as kiwi

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", ".build", "release", "LayoutSolverComparison")
SIZES = (100, 1000, 10000)
REPETITIONS = {100: 21, 1000: 7, 10000: 3}


def generate(size, seed):
    rng = random.Random(seed)
    count = max(size // 2, 2)
    truth = [rng.uniform(-1000, 1000) for _ in range(count)]
    constraints = []
    for _ in range(size - count):
        # Like a layout: a view's attribute against a neighbour's (offsets up to 10 apart).
        first = rng.randrange(count)
        picks = [first] + [min(max(first + rng.randint(-10, 10), 0), count - 1) for _ in range(rng.randint(0, 2))]
        terms = [{"variable": v, "coefficient": rng.choice([-1, 1]) * rng.choice([1, 1, 1, 0.5, 2])} for v in picks]
        value = sum(t["coefficient"] * truth[t["variable"]] for t in terms)
        relation = rng.choice(["==", "<=", ">="])
        if rng.random() < 0.3:
            strength = "required"
            slack = 0 if relation == "==" else rng.uniform(0, 100)
            bound = value + slack if relation == "<=" else value - slack
        else:
            # A random weight within the level, so that the optimum is unique (equal L1 weights tie).
            level = rng.choice([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
            strength = level + [rng.uniform(0.5, 2)]
            bound = value + rng.uniform(-200, 200)
        constraints.append({"terms": terms, "constant": -bound, "relation": relation, "strength": strength})
    for index in range(count):
        constraints.append({"terms": [{"variable": index, "coefficient": 1.0}],
                            "constant": -rng.uniform(-1000, 1000), "relation": "==",
                            "strength": [0, 0, 1, rng.uniform(0.5, 2)]})
    edits = rng.sample(range(count), min(10, count))
    suggestions = [[rng.uniform(-1000, 1000) for _ in edits] for _ in range(20)]
    return {"variables": count, "constraints": constraints, "edits": edits, "suggestions": suggestions}


def run_kiwi(system, repetitions):
    def strength(value):
        return kiwi.strength.required if value == "required" else kiwi.strength.create(*value)
    add_times, suggest_times, update_times, solution, edited = [], [], [], [], []
    for _ in range(repetitions):
        variables = [kiwi.Variable(f"v{i}") for i in range(system["variables"])]
        constraints = []
        for item in system["constraints"]:
            expression = sum((t["coefficient"] * variables[t["variable"]] for t in item["terms"]), item["constant"])
            relation = {"==": expression == 0, "<=": expression <= 0, ">=": expression >= 0}[item["relation"]]
            constraints.append(relation | strength(item["strength"]))
        solver = kiwi.Solver()
        start = time.perf_counter()
        for constraint in constraints:
            solver.addConstraint(constraint)
        solver.updateVariables()
        add_times.append(time.perf_counter() - start)
        solution = [v.value() for v in variables]
        for index in system["edits"]:
            solver.addEditVariable(variables[index], kiwi.strength.strong)
        suggest_time = update_time = 0.0
        for round_ in system["suggestions"]:
            start = time.perf_counter()
            for index, value in zip(system["edits"], round_):
                solver.suggestValue(variables[index], value)
            middle = time.perf_counter()
            solver.updateVariables()
            suggest_time, update_time = suggest_time + middle - start, update_time + time.perf_counter() - middle
        suggest_times.append(suggest_time)
        update_times.append(update_time)
        edited = [v.value() for v in variables]
    return {"add": add_times, "suggest": suggest_times, "update": update_times, "solution": solution, "edited": edited}


def run_swift(path, repetitions):
    output = subprocess.run([BINARY, path, str(repetitions)], check=True, capture_output=True).stdout
    return json.loads(output)


OPERATIONS = ("add", "suggest", "update")


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"build it first: cd Benchmarks && swift build -c release --product LayoutSolverComparison")
    print(f"{'constraints':>11}" + "".join(f" {operation + ': rehearse':>17} {'kiwisolver':>11} {'ratio':>6}"
                                          for operation in OPERATIONS) + f" {'max |difference|':>16} {'load':>5}")
    failed = False
    for size in SIZES:
        system = generate(size, seed=size)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(system, handle)
            path = handle.name
        repetitions = REPETITIONS[size]
        # One after the other in the same minute, so that the load is about the same for both.
        kiwi_result = run_kiwi(system, repetitions)
        swift_result = run_swift(path, repetitions)
        os.unlink(path)
        difference = max(max(abs(a - b) for a, b in zip(kiwi_result["solution"], swift_result["solution"])),
                         max(abs(a - b) for a, b in zip(kiwi_result["edited"], swift_result["edited"])))
        failed |= difference > 1e-6
        line = f"{size:>11}"
        for operation in OPERATIONS:
            ours, theirs = statistics.median(swift_result[operation]), statistics.median(kiwi_result[operation])
            line += f" {ours * 1e3:>15.3f}ms {theirs * 1e3:>9.3f}ms {ours / theirs:>6.2f}"
        print(line + f" {difference:>16.2e} {os.getloadavg()[0]:>5.1f}")
    print("ratio = Rehearse time / kiwisolver time (goal: at most 2); load = 1-minute load average after the size;",
          "solutions agree within 1e-6:", "no" if failed else "yes")


if __name__ == "__main__":
    main()
