/// The node properties that have a model and a presentation value, each a vector of up to four numbers.
public enum AnimatableProperty: String, CaseIterable, Sendable {
    case frame, alpha, contentOffset, contentSize, contentInset, scrollIndicatorInsets, zoomScale
    case strokeStart, strokeEnd

    /// The number of animatable properties.
    public static let count = allCases.count

    /// The property's position in ``allCases``.
    public var index: Int {
        switch self {
        case .frame: 0
        case .alpha: 1
        case .contentOffset: 2
        case .contentSize: 3
        case .contentInset: 4
        case .scrollIndicatorInsets: 5
        case .zoomScale: 6
        case .strokeStart: 7
        case .strokeEnd: 8
        }
    }

    /// The names of the property's components, in vector order (`frame`: x, y, width, height).
    public var componentNames: [String] {
        switch self {
        case .frame: ["x", "y", "width", "height"]
        case .contentOffset: ["x", "y"]
        case .contentSize: ["width", "height"]
        case .contentInset, .scrollIndicatorInsets: ["top", "left", "bottom", "right"]
        case .alpha, .zoomScale, .strokeStart, .strokeEnd: []
        }
    }

    /// Reads a whole value of the property: a number, or the mapping or list of its components.
    public func vector(from value: FieldValue, path: String) throws(FieldError) -> SIMD4<Double> {
        switch self {
        case .frame: try Rect(field: value, path: path).vector
        case .contentOffset: try Point(field: value, path: path).vector
        case .contentSize: try Size(field: value, path: path).vector
        case .contentInset, .scrollIndicatorInsets: try EdgeInsets(field: value, path: path).vector
        case .alpha, .zoomScale, .strokeStart, .strokeEnd: SIMD4(try Double(field: value, path: path), 0, 0, 0)
        }
    }

    /// The property's value in field form, from its vector.
    public func fieldValue(_ vector: SIMD4<Double>) -> FieldValue {
        let names = componentNames
        guard !names.isEmpty else { return .double(vector[0]) }
        var fields: Fields = [:]
        for (index, name) in names.enumerated() { fields[name] = .double(vector[index]) }
        return .dictionary(fields)
    }
}

extension Rect {
    /// The rectangle as a vector (x, y, width, height).
    public var vector: SIMD4<Double> { SIMD4(origin.x, origin.y, size.width, size.height) }
    /// A rectangle from a vector (x, y, width, height).
    public init(_ vector: SIMD4<Double>) { self.init(x: vector[0], y: vector[1], width: vector[2], height: vector[3]) }
}

extension Point {
    /// The point as a vector (x, y, 0, 0).
    public var vector: SIMD4<Double> { SIMD4(x, y, 0, 0) }
    /// A point from a vector's first two components.
    public init(_ vector: SIMD4<Double>) { self.init(x: vector[0], y: vector[1]) }
}

extension Size {
    /// The size as a vector (width, height, 0, 0).
    public var vector: SIMD4<Double> { SIMD4(width, height, 0, 0) }
    /// A size from a vector's first two components.
    public init(_ vector: SIMD4<Double>) { self.init(width: vector[0], height: vector[1]) }
}

extension EdgeInsets {
    /// The insets as a vector (top, left, bottom, right).
    public var vector: SIMD4<Double> { SIMD4(top, left, bottom, right) }
    /// Insets from a vector (top, left, bottom, right).
    public init(_ vector: SIMD4<Double>) { self.init(top: vector[0], left: vector[1], bottom: vector[2], right: vector[3]) }
}
