/// Which part of an animatable property's value a path names after the property (`frame` whole,
/// `frame.y`, `frame.maxX`), found once from the names and then read from any value of it.
enum PropertyPart: Hashable, Sendable {
    case whole
    case component(Int)
    case maxX
    case maxY

    /// The part `rest` names (the path's names after the property); `path` is for the error.
    init(of property: AnimatableProperty, _ rest: [String], path: String) throws(PathError) {
        guard let name = rest.first else {
            self = .whole
            return
        }
        if property == .frame, rest.count == 1, name == "maxX" || name == "maxY" {
            self = name == "maxX" ? .maxX : .maxY
            return
        }
        guard rest.count == 1, let index = property.componentNames.firstIndex(of: name) else {
            let names = property.componentNames + (property == .frame ? ["maxX", "maxY"] : [])
            throw PathError(
                path: path,
                reason: names.isEmpty
                    ? "\(property.rawValue) is a single number"
                    : "\(property.rawValue) has \(names.joined(separator: ", "))\(Suggestion.hint(for: name, among: names))")
        }
        self = .component(index)
    }

    /// This part of `vector`, a value of `property`.
    func value(of property: AnimatableProperty, _ vector: SIMD4<Double>) -> FieldValue {
        if case .whole = self { return property.fieldValue(vector) }
        return .double(number(of: vector))
    }

    /// This part of `vector` as a number; the first component for ``whole`` (a single-number
    /// property's value).
    func number(of vector: SIMD4<Double>) -> Double {
        switch self {
        case .whole: vector[0]
        case .component(let index): vector[index]
        case .maxX: vector[0] + vector[2]
        case .maxY: vector[1] + vector[3]
        }
    }
}
