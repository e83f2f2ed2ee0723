import ArgumentParser
import RehearseScenario

/// The work one run (or one explore sequence) may do, shared by `run` and `explore`.
struct BudgetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The most events one run (or explore sequence) may deliver.",
            discussion: "A run that needs more stops with an error (exit 2)."))
    var maxEvents = WorkBudget.defaultEvents

    @Option(help: "The most invariant checks (events × the paths the invariants read) one run (or explore sequence) may make.")
    var maxInvariantChecks = WorkBudget.defaultInvariantChecks

    @Option(help: "The most nodes the node queries and accessibility checks of one run may read (each reads the scene's nodes).")
    var maxQueriedNodes = WorkBudget.defaultQueriedNodes

    func validate() throws {
        guard maxEvents >= 1, maxInvariantChecks >= 1, maxQueriedNodes >= 1 else {
            throw ValidationError("--max-events, --max-invariant-checks and --max-queried-nodes must be at least 1")
        }
    }

    var budget: WorkBudget {
        WorkBudget(maximumEvents: maxEvents, maximumInvariantChecks: maxInvariantChecks, maximumQueriedNodes: maxQueriedNodes)
    }
}
