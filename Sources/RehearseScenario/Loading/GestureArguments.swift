import RehearseCore
import Yams

/// A gesture on a node given as fields instead of a step of a file (D-Bus `Gesture`'s `a{sv}`):
/// read by the touch steps' own reader (``TouchStepReader``), so that it takes the step mapping's
/// keys and defaults, has its limits and is refused in its words.
public enum GestureArguments {
    /// The gestures, by their steps' names.
    public static let kinds = ["drag", "fling", "swipe", "pinch", "long-press"]

    /// The gesture `kind` (one of ``kinds``) that `arguments` describe (`on` and the step's other
    /// keys: `by`, `velocity`, `direction`, `scale`, `at`, `duration`, `hold`, `distance`), against
    /// the screen of `simulation` now. Its node is found when it runs (``TouchStreamStep/Aim/node``);
    /// its fingers are the caller's to choose. Throws the step loader's message, whose location
    /// means nothing here.
    public static func read(_ kind: String, _ arguments: Fields, in simulation: Simulation) throws(ScenarioError)
        -> TouchStreamStep.Aim
    {
        let start = SourceLocation(file: "arguments", line: 1, column: 1)
        let reader = TouchStepReader()
        // In the order of `kinds`.
        let readers: [(YAMLValue, TouchStepReader.Screen) throws(ScenarioError) -> TouchStreamStep] = [
            reader.drag, reader.fling, reader.swipe, reader.pinch, reader.longPress,
        ]
        guard let index = kinds.firstIndex(of: kind) else {
            throw ScenarioError(
                "unknown gesture '\(kind)'\(Suggestion.hint(for: kind, among: kinds)); gestures: "
                    + kinds.joined(separator: ", "), at: start)
        }
        guard arguments["on"] != nil else { throw ScenarioError("\(kind) needs on: NODE (an id or a query)", at: start) }
        let read = readers[index]
        let value = YAMLValue(node: node(.dictionary(arguments)), file: start.file)
        let screen = TouchStepReader.Screen(
            size: simulation.scene.bounds.size, rate: simulation.device.refreshRate,
            scene: simulation.scene
        ) { value, step throws(ScenarioError) in
            let field = try value.fieldValue(step) ?? .string("")
            do throws(FieldError) {
                return try NodeQuery(field: field)
            } catch {
                throw ScenarioError("\(step): on: \(error)", at: start)
            }
        }
        guard let aim = try read(value, screen).aim else {
            preconditionFailure("a gesture step with on: is aimed at a node")
        }
        return aim
    }

    /// `value` as the YAML node a file would hold, every scalar tagged with its type (a string
    /// stays a string, whatever it spells).
    private static func node(_ value: FieldValue) -> Yams.Node {
        switch value {
        case .bool(let flag): .scalar(.init(flag ? "true" : "false", Tag(.bool)))
        case .int(let number): .scalar(.init(String(number), Tag(.int)))
        case .double(let number): .scalar(.init("\(number)", Tag(.float)))
        case .string(let text): .scalar(.init(text, Tag(.str)))
        case .array(let items): .sequence(.init(items.map(node)))
        case .dictionary(let fields):
            .mapping(
                .init(fields.sorted { $0.key < $1.key }.map { (Yams.Node.scalar(.init($0.key, Tag(.str))), node($0.value)) }))
        }
    }
}
