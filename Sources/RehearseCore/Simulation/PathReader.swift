/// A path prepared once to be read on every display frame (the report's plots). A node's
/// animatable property, model or presentation, whole or one part (`box.presentation.frame.y`), is
/// read through a handle to the node: no names compared, no id looked up. Any other path, and a
/// node's while no node has its id, is read as ``Simulation/value(at:)-(ValuePath)`` reads it: the
/// value is always that one's.
public struct PathReader: Sendable {
    /// The path read.
    public let path: ValuePath
    fileprivate let property: PropertyRead?

    /// A node's animatable property, resolved.
    fileprivate struct PropertyRead: Sendable {
        let node: NodeHandle
        let property: AnimatableProperty
        let presentation: Bool
        let part: PropertyPart
    }
}

extension Simulation {
    /// `path` prepared for ``value(of:)``, resolved against the scene as it is now.
    public func reader(for path: ValuePath) -> PathReader {
        PathReader(path: path, property: propertyRead(path.parts))
    }

    /// The value at the reader's path now, as ``value(at:)-(ValuePath)`` reads it.
    public func value(of reader: PathReader) throws(PathError) -> FieldValue? {
        guard let read = reader.property, let slot = scene.slot(of: read.node) else { return try value(at: reader.path) }
        let vector =
            read.presentation
            ? animator.presentationValue(of: read.property, atSlot: slot)
            : scene.modelValue(of: read.property, atSlot: slot)
        return read.part.value(of: read.property, vector)
    }

    /// `NODE[.presentation].PROPERTY[.PART]` for a node there is now, or nil for any other path.
    private func propertyRead(_ parts: [String]) -> PathReader.PropertyRead? {
        guard let head = parts.first, !Self.systemHeads.contains(head), let node = scene.handle(head) else { return nil }
        var rest = parts.dropFirst()
        let presentation = rest.first == "presentation"
        if presentation { rest = rest.dropFirst() }
        guard let name = rest.first, let property = AnimatableProperty(rawValue: name),
            let part = try? PropertyPart(of: property, Array(rest.dropFirst()), path: "")
        else { return nil }
        return PathReader.PropertyRead(node: node, property: property, presentation: presentation, part: part)
    }
}
