/// A path prepared once to be read on every display frame (the report's plots). A node's
/// animatable property, model or presentation, whole or one part (`box.presentation.frame.y`), is
/// read through a ``PropertyHandle``: no names compared, no id looked up. Any other path, and a
/// node's while no node has its id, is read as ``Simulation/value(at:)-(ValuePath)`` reads it: the
/// value is always that one's.
public struct PathReader: Sendable {
    /// The path read.
    public let path: ValuePath
    fileprivate let property: PropertyHandle?
}

extension Simulation {
    /// `path` prepared for ``value(of:)``, resolved against the scene as it is now.
    public func reader(for path: ValuePath) -> PathReader {
        PathReader(path: path, property: propertyHandle(path.parts))
    }

    /// The value at the reader's path now, as ``value(at:)-(ValuePath)`` reads it.
    public func value(of reader: PathReader) throws(PathError) -> FieldValue? {
        guard let handle = reader.property, let vector = animator.value(of: handle) else { return try value(at: reader.path) }
        return handle.part.value(of: handle.property, vector)
    }

    /// A handle to the node property `path` names, `NODE[.presentation].PROPERTY[.PART]`, for a
    /// node there is now. Throws the error ``value(at:)-(ValuePath)`` gives for a path that reads
    /// nothing, and says so for one that reads something else (a node's text, a system path).
    public func propertyHandle(at path: ValuePath) throws(PathError) -> PropertyHandle {
        if let handle = propertyHandle(path.parts) { return handle }
        _ = try value(at: path)
        throw PathError(
            path: path.text,
            reason: "a handle reads a node's animatable property (NODE[.presentation].PROPERTY[.PART], such as "
                + "box.presentation.frame.y); read other paths with value(at:)")
    }

    /// `NODE[.presentation].PROPERTY[.PART]` for a node there is now, or nil for any other path.
    private func propertyHandle(_ parts: [String]) -> PropertyHandle? {
        guard let head = parts.first, !Self.systemHeads.contains(head), let node = scene.handle(head) else { return nil }
        var rest = parts.dropFirst()
        let presentation = rest.first == "presentation"
        if presentation { rest = rest.dropFirst() }
        guard let name = rest.first, let property = AnimatableProperty(rawValue: name),
            let part = try? PropertyPart(of: property, Array(rest.dropFirst()), path: "")
        else { return nil }
        return scene.propertyHandle(property, of: node, presentation: presentation, part: part)
    }
}
