import Foundation
import RehearseLayout

/// Reads a constraint system written by `layout/compare.py`, then for `repetitions` rounds: adds
/// every constraint to a fresh solver and times it, then times suggesting each edit round (which
/// re-solves) and writing the solution into the variables after it, apart. Prints one JSON object:
/// the times in seconds and the solutions.
///
/// Usage: LayoutSolverComparison SYSTEM.json REPETITIONS
struct System: Decodable {
    struct Term: Decodable {
        let variable: Int
        let coefficient: Double
    }

    struct Item: Decodable {
        let terms: [Term]
        let constant: Double
        let relation: String
        /// `"required"`, or `[strong, medium, weak, weight]` as Kiwi's `createStrength`.
        let strength: StrengthSpec
    }

    enum StrengthSpec: Decodable {
        case required
        case weighted([Double])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let levels = try? container.decode([Double].self), levels.count == 4 {
                self = .weighted(levels)
            } else {
                self = .required
            }
        }

        var strength: Strength {
            switch self {
            case .required: .required
            case .weighted(let levels): Strength(strong: levels[0], medium: levels[1], weak: levels[2], weight: levels[3])
            }
        }
    }

    let variables: Int
    let constraints: [Item]
    let edits: [Int]
    let suggestions: [[Double]]
}

func relation(_ name: String) -> Constraint.Relation {
    switch name {
    case "<=": .lessThanOrEqual
    case ">=": .greaterThanOrEqual
    default: .equal
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let repetitions = Int(arguments[2]),
    let data = FileManager.default.contents(atPath: arguments[1]),
    let system = try? JSONDecoder().decode(System.self, from: data)
else {
    FileHandle.standardError.write(Data("usage: LayoutSolverComparison SYSTEM.json REPETITIONS\n".utf8))
    exit(2)
}

let clock = ContinuousClock()
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

var addTimes: [Double] = []
var suggestTimes: [Double] = []
var updateTimes: [Double] = []
var solution: [Double] = []
var edited: [Double] = []
for _ in 0..<repetitions {
    let variables = (0..<system.variables).map { Variable("v\($0)") }
    let constraints = system.constraints.map { item in
        Constraint(
            Expression(item.terms.map { (variables[$0.variable], $0.coefficient) }, constant: item.constant),
            relation(item.relation), Expression(), strength: item.strength.strength)
    }
    let solver = ConstraintSolver()
    let start = clock.now
    for constraint in constraints { try? solver.add(constraint) }
    solver.updateVariables()
    addTimes.append(seconds(clock.now - start))
    solution = variables.map(\.value)
    for index in system.edits { try? solver.addEditVariable(variables[index], strength: .strong) }
    var suggestTime = 0.0
    var updateTime = 0.0
    for round in system.suggestions {
        let start = clock.now
        for (index, value) in zip(system.edits, round) { try? solver.suggestValue(value, for: variables[index]) }
        let middle = clock.now
        solver.updateVariables()
        (suggestTime, updateTime) = (suggestTime + seconds(middle - start), updateTime + seconds(clock.now - middle))
    }
    suggestTimes.append(suggestTime)
    updateTimes.append(updateTime)
    edited = variables.map(\.value)
}
let result: [String: Any] = [
    "add": addTimes, "suggest": suggestTimes, "update": updateTimes, "solution": solution, "edited": edited,
]
let json = try JSONSerialization.data(withJSONObject: result)
FileHandle.standardOutput.write(json)
