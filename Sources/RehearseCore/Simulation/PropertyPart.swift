/// Which part of an animatable property's value a path names after the property (`frame` whole,
/// `frame.y`, `frame.maxX`), found once from the names and then read from any value of it.
enum PropertyPart: Sendable {
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
        switch self {
        case .whole: property.fieldValue(vector)
        case .component(let index): .double(vector[index])
        case .maxX: .double(vector[0] + vector[2])
        case .maxY: .double(vector[1] + vector[3])
        }
    }
}
