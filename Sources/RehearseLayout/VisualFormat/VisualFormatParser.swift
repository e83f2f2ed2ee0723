/// Parses Apple's Visual Format Language into constraints: `H:`/`V:`, the superview `|`,
/// standard spacing `-` (8 between siblings, 20 to the superview, as iOS 7), explicit spacing
/// `-(8)-` and `-metric-`, sizes `[view(1)]`, `[view(>=50,<=200)]`, `[view(==other)]`, priorities
/// `@750`, and options that align every view of a line. A metric named among the moving metrics
/// stays a name in the constraints (``LayoutConstraint/metric``), for a ``LayoutEngine`` to move.
public enum VisualFormatParser {
    /// iOS 7's standard spacing between sibling views.
    public static let siblingSpacing = 8.0
    /// iOS 7's standard spacing between a view and its superview's edge.
    public static let superviewSpacing = 20.0

    /// Options that align every view of a line, as `NSLayoutFormatOptions`.
    public enum AlignmentOption: String, CaseIterable, Sendable {
        case alignAllLeft, alignAllRight, alignAllTop, alignAllBottom, alignAllLeading, alignAllTrailing
        case alignAllCenterX, alignAllCenterY

        var attribute: LayoutAttribute {
            switch self {
            case .alignAllLeft: .left
            case .alignAllRight: .right
            case .alignAllTop: .top
            case .alignAllBottom: .bottom
            case .alignAllLeading: .leading
            case .alignAllTrailing: .trailing
            case .alignAllCenterX: .centerX
            case .alignAllCenterY: .centerY
            }
        }

        var isHorizontal: Bool { [.left, .right, .leading, .trailing, .centerX].contains(attribute) }
    }

    private struct Predicate {
        var relation: Constraint.Relation = .equal
        var constant: Double?
        /// A moving metric added to the constant.
        var metric: String?
        var view: String?
        var priority = 1000.0
    }

    private enum Connection {
        case flush
        case standard
        case predicates([Predicate])
    }

    /// The constraints `format` describes, with `metrics` naming constants and `movingMetrics`
    /// naming the spacings and sizes that stay names (``LayoutConstraint/metric``, constant 0).
    public static func parse(
        _ format: String, metrics: [String: Double] = [:], movingMetrics: Set<String> = [],
        options: [AlignmentOption] = []
    ) throws(LayoutSyntaxError) -> [LayoutConstraint] {
        let metrics = Metrics(values: metrics, moving: movingMetrics)
        var cursor = TextCursor(format)
        var horizontal = true
        if cursor.take("H:") { horizontal = true } else if cursor.take("V:") { horizontal = false }
        let (leading, trailing, size) =
            horizontal
            ? (LayoutAttribute.left, LayoutAttribute.right, LayoutAttribute.width)
            : (LayoutAttribute.top, LayoutAttribute.bottom, LayoutAttribute.height)
        for option in options where option.isHorizontal == horizontal {
            throw LayoutSyntaxError(
                "option \(option.rawValue) must be perpendicular to the line's orientation",
                in: format, at: 0)
        }
        var result: [LayoutConstraint] = []
        func add(
            _ first: String, _ firstAttribute: LayoutAttribute, _ predicate: Predicate,
            _ second: String?, _ secondAttribute: LayoutAttribute?, constant: Double
        ) {
            result.append(
                LayoutConstraint(
                    first, firstAttribute, predicate.relation, second, secondAttribute,
                    constant: constant, metric: predicate.metric, priority: predicate.priority,
                    source: format))
        }
        func connect(_ connection: Connection, from previous: String?, to next: String?) {
            let predicates: [Predicate] =
                switch connection {
                case .flush: [Predicate(constant: 0)]
                case .standard: [Predicate(constant: previous == nil || next == nil ? superviewSpacing : siblingSpacing)]
                case .predicates(let predicates): predicates
                }
            for predicate in predicates {
                let spacing = predicate.constant ?? 0
                switch (previous, next) {
                case (nil, let view?): add(view, leading, predicate, superviewID, leading, constant: spacing)
                case (let view?, nil): add(superviewID, trailing, predicate, view, trailing, constant: spacing)
                case (let first?, let second?): add(second, leading, predicate, first, trailing, constant: spacing)
                case (nil, nil): break
                }
            }
        }

        var views: [String] = []
        var toSuperview: Connection?
        if cursor.take("|") { toSuperview = try connection(&cursor, metrics) ?? .flush }
        try view(&cursor, metrics, size: size, into: &result, views: &views)
        if let toSuperview { connect(toSuperview, from: nil, to: views.last) }
        var previous = views.last
        while !cursor.isAtEnd {
            let connection = try connection(&cursor, metrics) ?? .flush
            if cursor.take("|") {
                connect(connection, from: previous, to: nil)
                guard cursor.isAtEnd else { throw cursor.error("expected the end after the trailing |") }
                break
            }
            try view(&cursor, metrics, size: size, into: &result, views: &views)
            connect(connection, from: previous, to: views.last)
            previous = views.last
        }
        for option in options {
            for (first, second) in zip(views, views.dropFirst()) {
                result.append(LayoutConstraint(second, option.attribute, .equal, first, option.attribute, source: format))
            }
        }
        return result
    }

    /// `[name]` or `[name(predicates)]`, adding its size constraints.
    private static func view(
        _ cursor: inout TextCursor, _ metrics: Metrics, size: LayoutAttribute,
        into result: inout [LayoutConstraint], views: inout [String]
    ) throws(LayoutSyntaxError) {
        try cursor.expect("[", "a view such as [name]")
        guard let name = cursor.identifier() else { throw cursor.error("expected a view name") }
        guard !views.contains(name) else { throw cursor.error("view '\(name)' appears twice in one line") }
        if cursor.take("(") {
            repeat {
                let predicate = try predicate(&cursor, metrics, allowsViews: true)
                result.append(
                    LayoutConstraint(
                        name, size, predicate.relation, predicate.view, predicate.view == nil ? nil : size,
                        constant: predicate.constant ?? 0, metric: predicate.metric, priority: predicate.priority,
                        source: cursor.source))
            } while cursor.take(",")
            try cursor.expect(")", "',' or ')' after a size predicate")
        }
        try cursor.expect("]", "']' to close [\(name)")
        views.append(name)
    }

    /// A connection: `-`, `-n-`, `-metric-`, `-(predicates)-`; `nil` when none comes next.
    private static func connection(_ cursor: inout TextCursor, _ metrics: Metrics) throws(LayoutSyntaxError) -> Connection? {
        guard cursor.take("-") else { return nil }
        if cursor.current == "[" || cursor.current == "|" { return .standard }
        var predicates: [Predicate] = []
        if cursor.take("(") {
            repeat { predicates.append(try predicate(&cursor, metrics, allowsViews: false)) } while cursor.take(",")
            try cursor.expect(")", "',' or ')' after a spacing predicate")
        } else if let name = metrics.movingAhead(cursor) {
            _ = cursor.identifier()
            predicates.append(Predicate(constant: 0, metric: name))
        } else {
            predicates.append(Predicate(constant: try cursor.constant(metrics.values)))
        }
        try cursor.expect("-", "'-' after the spacing")
        return .predicates(predicates)
    }

    /// `(==|<=|>=)? (constant | view) (@priority)?`.
    private static func predicate(
        _ cursor: inout TextCursor, _ metrics: Metrics,
        allowsViews: Bool
    ) throws(LayoutSyntaxError) -> Predicate {
        var predicate = Predicate()
        if cursor.take("==") {
            predicate.relation = .equal
        } else if cursor.take("<=") {
            predicate.relation = .lessThanOrEqual
        } else if cursor.take(">=") {
            predicate.relation = .greaterThanOrEqual
        }
        if let number = cursor.number() {
            predicate.constant = number
        } else if let first = cursor.current, first.isLetter || first == "_" {
            let start = cursor.offset
            let identifier = cursor.identifier() ?? ""
            if metrics.moving.contains(identifier) {
                predicate.constant = 0
                predicate.metric = identifier
            } else if let value = metrics.values[identifier] {
                predicate.constant = value
            } else if allowsViews {
                predicate.view = identifier
            } else {
                throw LayoutSyntaxError("unknown metric '\(identifier)'", in: cursor.source, at: start)
            }
        } else {
            throw cursor.error("expected a number, a metric" + (allowsViews ? " or a view name" : ""))
        }
        if cursor.take("@") { predicate.priority = try cursor.priority(metrics.values) }
        return predicate
    }

    /// The metrics a line is parsed with: the fixed ones' values, and the moving ones' names.
    private struct Metrics {
        let values: [String: Double]
        let moving: Set<String>

        /// The moving metric the cursor is at, if it is at one.
        func movingAhead(_ cursor: TextCursor) -> String? {
            var lookahead = cursor
            guard let name = lookahead.identifier(), moving.contains(name) else { return nil }
            return name
        }
    }
}
