/// Parses one constraint written as an equation: `title.centerX == superview.centerX`,
/// `a.width == 0.5 * b.width + 10`, `separator.height == 1`, `a.top >= b.bottom + gap @750`.
public enum SingleConstraintParser {
    public static func parse(_ text: String, metrics: [String: Double] = [:]) throws(LayoutSyntaxError) -> LayoutConstraint {
        var cursor = TextCursor(text)
        cursor.skipSpaces()
        let (firstItem, firstAttribute) = try itemAttribute(&cursor)
        cursor.skipSpaces()
        let relation: Constraint.Relation
        if cursor.take("==") {
            relation = .equal
        } else if cursor.take("<=") {
            relation = .lessThanOrEqual
        } else if cursor.take(">=") {
            relation = .greaterThanOrEqual
        } else {
            throw cursor.error("expected ==, <= or >=")
        }
        cursor.skipSpaces()
        var constraint = LayoutConstraint(firstItem, firstAttribute, relation, source: text)
        var multiplier: Double?
        if let number = cursor.number() {
            cursor.skipSpaces()
            guard cursor.take("*") else {
                constraint.constant = number
                return try finish(&cursor, constraint, metrics)
            }
            multiplier = number
            cursor.skipSpaces()
        } else if let metric = metricAhead(cursor, metrics) {
            _ = cursor.identifier()
            constraint.constant = metric
            return try finish(&cursor, constraint, metrics)
        }
        let (secondItem, secondAttribute) = try itemAttribute(&cursor)
        constraint.secondItem = secondItem
        constraint.secondAttribute = secondAttribute
        cursor.skipSpaces()
        if multiplier == nil, cursor.take("*") {
            cursor.skipSpaces()
            guard let number = cursor.number() else { throw cursor.error("expected a multiplier") }
            multiplier = number
        }
        constraint.multiplier = multiplier ?? 1
        cursor.skipSpaces()
        for (sign, symbol) in [(1.0, "+"), (-1.0, "-")] where cursor.take(symbol) {
            cursor.skipSpaces()
            constraint.constant = sign * (try cursor.constant(metrics))
            break
        }
        return try finish(&cursor, constraint, metrics)
    }

    private static func finish(
        _ cursor: inout TextCursor, _ constraint: LayoutConstraint,
        _ metrics: [String: Double]
    ) throws(LayoutSyntaxError) -> LayoutConstraint {
        var constraint = constraint
        cursor.skipSpaces()
        if cursor.take("@") {
            cursor.skipSpaces()
            constraint.priority = try cursor.priority(metrics)
            cursor.skipSpaces()
        }
        guard cursor.isAtEnd else { throw cursor.error("expected the end of the constraint") }
        return constraint
    }

    private static func itemAttribute(_ cursor: inout TextCursor) throws(LayoutSyntaxError) -> (String, LayoutAttribute) {
        guard let item = cursor.identifier() else { throw cursor.error("expected a view name such as title.top") }
        try cursor.expect(".", "'.' and an attribute after '\(item)'")
        let start = cursor.offset
        guard let name = cursor.identifier(), let attribute = LayoutAttribute(rawValue: name) else {
            let names = LayoutAttribute.allCases.map(\.rawValue).joined(separator: ", ")
            throw LayoutSyntaxError("expected an attribute (\(names))", in: cursor.source, at: start)
        }
        return (item, attribute)
    }

    private static func metricAhead(_ cursor: TextCursor, _ metrics: [String: Double]) -> Double? {
        var lookahead = cursor
        guard let name = lookahead.identifier(), lookahead.current != "." else { return nil }
        return metrics[name]
    }
}
