import RehearseCore

/// Lays a scene out with constraints, as Auto Layout does: named constraint sets compiled once,
/// activated and deactivated incrementally on one Cassowary solver, the solution written into the
/// nodes' model frames (and so animated inside an animation transaction).
///
/// Each laid-out view has `left`, `top`, `width` and `height` variables in its superview's
/// coordinates; `superview` in a constraint stands for the other views' common parent, whose left
/// and top are 0 and whose size is either solved (if it is laid out too) or held at its current
/// frame size. Views also keep their intrinsic size (``IntrinsicSize``) and, weakly, their current
/// frame, so an under-constrained view stays where it was. A ``LayoutGuide`` follows its
/// superview's safe-area insets, as UIKit computes them for that view (``Scene/safeAreaInsets(of:)``),
/// taken again at every lay-out.
///
/// What moves while the sets stay (a spacing fitted to the keyboard's height, a top that differs
/// between two sets of the same line) is a moving metric (``LayoutConstraint/metric``): an edit
/// variable of the solver that the active sets give a value, moved with a suggestion and
/// re-solved from the previous basis (the dual simplex) instead of removing and adding the
/// constraints that name it.
public final class LayoutEngine: SceneLayout {
    /// A container's safe-area insets, in its own coordinates.
    fileprivate struct InsetVariables {
        let top, left, bottom, right: Variable

        init(_ id: String) {
            top = Variable("\(id).safeArea.top")
            left = Variable("\(id).safeArea.left")
            bottom = Variable("\(id).safeArea.bottom")
            right = Variable("\(id).safeArea.right")
        }

        var all: [Variable] { [top, left, bottom, right] }
    }

    fileprivate struct ViewVariables {
        let left, top, width, height: Variable

        init(_ id: String) {
            left = Variable("\(id).left")
            top = Variable("\(id).top")
            width = Variable("\(id).width")
            height = Variable("\(id).height")
        }
    }

    /// Everything but the target: what a ``Snapshot`` keeps.
    fileprivate struct State {
        var solver = ConstraintSolver()
        var views: [String: ViewVariables] = [:]
        /// Laid-out views in the order they were first named.
        var viewOrder: [String] = []
        /// Containers whose size is held at their frame: their variables, by node id.
        var heldContainers: [String: ViewVariables] = [:]
        /// The safe-area insets of the containers whose layout guides constraints name, by node id.
        var safeAreaInsets: [String: InsetVariables] = [:]
        var sets: [String: [Constraint]] = [:]
        /// The moving metrics' edit variables, by name.
        var metricVariables: [String: Variable] = [:]
        /// The values each set gives the moving metrics, by set name.
        var metricsBySet: [String: [String: Double]] = [:]
        /// The value each moving metric was last given.
        var suggestedMetrics: [String: Double] = [:]
        var constraintSetNames: [String] = []
        var activeConstraintSets: [String] = []
    }

    /// An engine's state without its target (the solver's copied on write): a set-up built again and
    /// again (an exploration's) lays its scene out once and starts each build from a snapshot
    /// (``init(snapshot:target:)``), the same to the last bit as laying it out again.
    public struct Snapshot {
        fileprivate let state: State
    }

    private unowned let target: any LayoutTarget
    private var state = State()
    public var constraintSetNames: [String] { state.constraintSetNames }
    public var activeConstraintSets: [String] { state.activeConstraintSets }

    /// Compiles `sets` (name, constraints) against `target`'s scene, refusing unknown views and views
    /// that do not share a superview; `metrics` gives, by set name, the values a set gives the moving
    /// metrics its constraints name (the later set in `sets` wins where two active ones give one).
    /// Nothing is active until ``activate(_:)``.
    public init(
        target: any LayoutTarget, sets: [(name: String, constraints: [LayoutConstraint])],
        metrics: [String: [String: Double]] = [:]
    ) throws(LayoutError) {
        self.target = target
        state.constraintSetNames = sets.map(\.name)
        var compiled: [String: [Constraint]] = [:]
        for (name, constraints) in sets {
            var result: [Constraint] = []
            for constraint in constraints { result.append(try compile(constraint)) }
            compiled[name] = result
        }
        state.sets = compiled
        for (name, values) in metrics.sorted(by: { $0.key < $1.key }) { try checkMetrics(values, for: name) }
        state.metricsBySet = metrics
        try addPermanentConstraints()
    }

    /// An engine in the state `snapshot` was taken in, laying out `target`, whose scene must be the
    /// one the snapshot's engine was built on, as it was then (the same set-up built again): nothing
    /// is compiled or solved, and ``layOutAgain()`` writes the frames the snapshot's engine wrote.
    public init(snapshot: Snapshot, target: any LayoutTarget) {
        self.target = target
        state = snapshot.state
        state.solver = snapshot.state.solver.copy()
    }

    /// This engine's state now, for ``init(snapshot:target:)``.
    public func snapshot() -> Snapshot {
        var copied = state
        copied.solver = state.solver.copy()
        return Snapshot(state: copied)
    }

    // MARK: SceneLayout

    public func activate(_ names: [String]) throws {
        try activate(names, layingOut: true)
    }

    /// Makes exactly `names` active; with `layingOut` false the frames stay as they are until the
    /// next lay-out (a form that should not move now, but should come back right later).
    public func activate(_ names: [String], layingOut: Bool) throws {
        for name in names where state.sets[name] == nil { throw LayoutError.unknownSet(name, known: state.constraintSetNames) }
        let leaving = state.activeConstraintSets.filter { !names.contains($0) }
        let entering = names.filter { !state.activeConstraintSets.contains($0) }
        var removed: [Constraint] = []
        var added: [Constraint] = []
        do {
            for constraint in leaving.flatMap({ state.sets[$0] ?? [] }) {
                try state.solver.remove(constraint)
                removed.append(constraint)
            }
            for constraint in entering.flatMap({ state.sets[$0] ?? [] }) {
                try state.solver.add(constraint)
                added.append(constraint)
            }
        } catch {
            for constraint in added.reversed() { try? state.solver.remove(constraint) }
            for constraint in removed { try? state.solver.add(constraint) }
            if case .unsatisfiableConstraint(let source) = error { throw LayoutError.unsatisfiable(constraint: source) }
            throw LayoutError.solver(error)
        }
        state.activeConstraintSets = state.constraintSetNames.filter { names.contains($0) }
        try suggestMetrics()
        if layingOut { try layOutAgain() }
    }

    /// Gives the moving metrics `values` in the set `name` (replacing what it gave); an active set
    /// takes effect at once, laid out as ``activate(_:)`` does, with no constraint removed or added.
    public func setMetrics(_ values: [String: Double], for name: String) throws {
        try checkMetrics(values, for: name)
        state.metricsBySet[name] = values
        guard state.activeConstraintSets.contains(name) else { return }
        try suggestMetrics()
        try layOutAgain()
    }

    private func checkMetrics(_ values: [String: Double], for name: String) throws(LayoutError) {
        guard state.sets[name] != nil else { throw .unknownSet(name, known: state.constraintSetNames) }
        for metric in values.keys.sorted() where state.metricVariables[metric] == nil {
            throw .unknownMetric(metric, known: state.metricVariables.keys.sorted())
        }
    }

    /// Suggests what the active sets give each moving metric, where it changed.
    private func suggestMetrics() throws(LayoutError) {
        var values: [String: Double] = [:]
        for name in state.activeConstraintSets { values.merge(state.metricsBySet[name] ?? [:]) { $1 } }
        do {
            for (metric, value) in values.sorted(by: { $0.key < $1.key }) where state.suggestedMetrics[metric] != value {
                guard let variable = state.metricVariables[metric] else { continue }
                try state.solver.suggestValue(value, for: variable)
                state.suggestedMetrics[metric] = value
            }
        } catch {
            throw .solver(error)
        }
    }

    /// Replaces the constraints of the set `name` (adding it if new); an active set takes effect at
    /// once, laid out as ``activate(_:)`` does. Refused constraints leave the old ones in place.
    public func setConstraints(_ constraints: [LayoutConstraint], for name: String) throws {
        var compiled: [Constraint] = []
        for constraint in constraints { compiled.append(try compile(constraint)) }
        let old = state.sets[name] ?? []
        state.sets[name] = compiled
        if !state.constraintSetNames.contains(name) { state.constraintSetNames.append(name) }
        guard state.activeConstraintSets.contains(name) else { return }
        do {
            for constraint in old { try state.solver.remove(constraint) }
            for constraint in compiled { try state.solver.add(constraint) }
        } catch {
            for constraint in compiled where state.solver.contains(constraint) { try? state.solver.remove(constraint) }
            for constraint in old where !state.solver.contains(constraint) { try? state.solver.add(constraint) }
            state.sets[name] = old
            if case .unsatisfiableConstraint(let source) = error { throw LayoutError.unsatisfiable(constraint: source) }
            throw LayoutError.solver(error)
        }
        try layOutAgain()
    }

    public func layOutAgain() throws {
        for (id, variables) in state.heldContainers {
            guard let size = target.scene[id]?.frame.size else { continue }
            try state.solver.suggestValue(size.width, for: variables.width)
            try state.solver.suggestValue(size.height, for: variables.height)
        }
        for (id, variables) in state.safeAreaInsets.sorted(by: { $0.key < $1.key }) { try suggestInsets(of: id, to: variables) }
        let solver = state.solver
        for id in state.viewOrder {
            // A view taken out of the scene (a gateway swapping children) keeps its variables.
            guard let variables = state.views[id], target.scene.contains(id) else { continue }
            let frame = Rect(
                x: solver.value(of: variables.left), y: solver.value(of: variables.top),
                width: solver.value(of: variables.width), height: solver.value(of: variables.height))
            guard target.scene[id]?.frame != frame else { continue }
            try target.set(frame.vector, for: .frame, of: id)
        }
    }

    // MARK: Compiling

    /// The variables of a laid-out view, made on first use.
    private func variables(of id: String) -> ViewVariables {
        if let existing = state.views[id] { return existing }
        let made = ViewVariables(id)
        state.views[id] = made
        state.viewOrder.append(id)
        return made
    }

    private func compile(_ constraint: LayoutConstraint) throws(LayoutError) -> Constraint {
        let items = [constraint.firstItem, constraint.secondItem].compactMap { $0 }
            .filter { $0 != superviewID && LayoutGuide(rawValue: $0) == nil }
        for item in items where !target.scene.contains(item) {
            throw .unknownView(item, constraint: constraint.source)
        }
        let parents = Set(items.compactMap { target.scene[$0]?.parent })
        guard parents.count == 1, let parent = parents.first else {
            throw .differentSuperviews(items.joined(separator: " and "), constraint: constraint.source)
        }
        if [constraint.firstItem, constraint.secondItem].contains(where: { $0.flatMap(LayoutGuide.init) != nil }) {
            try followSafeArea(of: parent)
        }
        let first = expression(constraint.firstItem, constraint.firstAttribute, parent: parent)
        var second = Expression(constant: constraint.constant)
        if let item = constraint.secondItem, let attribute = constraint.secondAttribute {
            second = expression(item, attribute, parent: parent) * constraint.multiplier + constraint.constant
        }
        if let metric = constraint.metric { second = second + Expression(try metricVariable(metric)) }
        return Constraint(
            first, constraint.relation, second, strength: .priority(constraint.priority),
            origin: constraint.source.isEmpty ? constraint.description : constraint.source)
    }

    /// `item.attribute` as an expression; the superview's left and top are 0 in its children's coordinates.
    private func expression(_ item: String, _ attribute: LayoutAttribute, parent: String) -> Expression {
        if item == superviewID {
            let size = container(parent)
            switch attribute {
            case .left, .leading, .top: return Expression()
            case .right, .trailing, .width: return Expression(size.width)
            case .bottom, .height: return Expression(size.height)
            case .centerX: return Expression(size.width) * 0.5
            case .centerY: return Expression(size.height) * 0.5
            }
        }
        if let guide = LayoutGuide(rawValue: item) { return expression(guide, attribute, parent: parent) }
        let view = variables(of: item)
        switch attribute {
        case .left, .leading: return Expression(view.left)
        case .top: return Expression(view.top)
        case .width: return Expression(view.width)
        case .height: return Expression(view.height)
        case .right, .trailing: return Expression(view.left) + Expression(view.width)
        case .bottom: return Expression(view.top) + Expression(view.height)
        case .centerX: return Expression(view.left) + Expression(view.width) * 0.5
        case .centerY: return Expression(view.top) + Expression(view.height) * 0.5
        }
    }

    /// `guide.attribute` in `parent`'s coordinates, from its size and safe-area insets.
    private func expression(_ guide: LayoutGuide, _ attribute: LayoutAttribute, parent: String) -> Expression {
        let size = container(parent)
        guard let insets = state.safeAreaInsets[parent] else {
            preconditionFailure("compile(_:) follows \(parent)'s safe area before naming a guide")
        }
        let width = Expression(size.width)
        let height = Expression(size.height)
        let (minX, minY, maxX, maxY): (Expression, Expression, Expression, Expression) =
            switch guide {
            case .safeArea:
                (
                    Expression(insets.left), Expression(insets.top), width - Expression(insets.right),
                    height - Expression(insets.bottom)
                )
            case .topLayoutGuide: (Expression(), Expression(), width, Expression(insets.top))
            case .bottomLayoutGuide: (Expression(), height - Expression(insets.bottom), width, height)
            }
        switch attribute {
        case .left, .leading: return minX
        case .right, .trailing: return maxX
        case .top: return minY
        case .bottom: return maxY
        case .width: return maxX - minX
        case .height: return maxY - minY
        case .centerX: return (minX + maxX) * 0.5
        case .centerY: return (minY + maxY) * 0.5
        }
    }

    /// The edit variable of the moving metric `name`, made on first use.
    private func metricVariable(_ name: String) throws(LayoutError) -> Variable {
        if let existing = state.metricVariables[name] { return existing }
        let variable = Variable("metric \(name)")
        do { try state.solver.addEditVariable(variable, strength: .heldByTheSystem) } catch { throw .solver(error) }
        state.metricVariables[name] = variable
        return variable
    }

    /// Makes `id`'s safe-area insets edit variables, set from the scene now and at every lay-out.
    private func followSafeArea(of id: String) throws(LayoutError) {
        guard state.safeAreaInsets[id] == nil else { return }
        let insets = InsetVariables(id)
        do {
            for variable in insets.all { try state.solver.addEditVariable(variable, strength: .heldByTheSystem) }
            try suggestInsets(of: id, to: insets)
        } catch {
            throw .solver(error)
        }
        state.safeAreaInsets[id] = insets
    }

    private func suggestInsets(of id: String, to variables: InsetVariables) throws(SolverError) {
        guard let insets = target.scene.safeAreaInsets(of: id) else { return }
        for (variable, value) in zip(variables.all, [insets.top, insets.left, insets.bottom, insets.right]) {
            try state.solver.suggestValue(value, for: variable)
        }
    }

    /// The size variables of a container: its own if it is laid out, else held ones.
    private func container(_ id: String) -> ViewVariables {
        state.views[id] ?? state.heldContainers[id]
            ?? {
                let held = ViewVariables(id)
                state.heldContainers[id] = held
                return held
            }()
    }

    /// Held container sizes, intrinsic sizes and the weak hold of each view's current frame.
    private func addPermanentConstraints() throws(LayoutError) {
        do {
            for (id, held) in state.heldContainers.sorted(by: { $0.key < $1.key }) {
                if let view = state.views[id] {
                    // The container turned out to be laid out itself: tie the held variables to its own.
                    try state.solver.add(Constraint(Expression(held.width), .equal, Expression(view.width)))
                    try state.solver.add(Constraint(Expression(held.height), .equal, Expression(view.height)))
                } else {
                    try state.solver.addEditVariable(held.width, strength: .heldByTheSystem)
                    try state.solver.addEditVariable(held.height, strength: .heldByTheSystem)
                }
            }
            state.heldContainers = state.heldContainers.filter { state.views[$0.key] == nil }
            for id in state.viewOrder {
                guard let node = target.scene[id], let view = state.views[id] else { continue }
                let intrinsic = IntrinsicSize.of(node)
                for (variable, size) in [(view.width, intrinsic.width), (view.height, intrinsic.height)] {
                    guard let size else { continue }
                    try state.solver.add(
                        Constraint(
                            Expression(variable), .lessThanOrEqual, Expression(constant: size),
                            strength: .priority(IntrinsicSize.huggingPriority), origin: "\(variable) hugging"))
                    try state.solver.add(
                        Constraint(
                            Expression(variable), .greaterThanOrEqual, Expression(constant: size),
                            strength: .priority(IntrinsicSize.compressionResistancePriority),
                            origin: "\(variable) compression resistance"))
                }
                let frame = node.frame
                for (variable, value) in [
                    (view.left, frame.minX), (view.top, frame.minY), (view.width, frame.size.width),
                    (view.height, frame.size.height),
                ] {
                    try state.solver.add(
                        Constraint(
                            Expression(variable), .equal, Expression(constant: value), strength: .stay,
                            origin: "\(variable) stays"))
                }
            }
        } catch {
            throw .solver(error)
        }
    }
}

extension Strength {
    /// What the system sets and constraints cannot move (a held container's size, safe-area
    /// insets): just below required, so a contradiction is the constraints' to lose.
    fileprivate static let heldByTheSystem = Strength(strong: 1000, medium: 1000, weak: 999)
}
