import RehearseCore

/// The `Snapshot()` reply: the scene now as JSON, model and presentation frames, secure text redacted.
enum SceneJSON {
    /// The scene of `simulation` now, as JSON.
    static func snapshot(of simulation: Simulation) -> String {
        let scene = simulation.scene
        let nodes: [FieldValue] = scene.allIDs.compactMap { id in
            guard let node = scene[id] else { return nil }
            var fields: Fields = [
                "id": .string(id), "kind": .string(node.kind.rawValue), "frame": node.frame.fieldValue,
                "hidden": .bool(node.hidden), "alpha": .double(node.alpha),
                "children": .array(node.children.map(FieldValue.string)),
            ]
            fields["presentationFrame"] = simulation.animator.presentationValue(of: .frame, of: id).map { Rect($0).fieldValue }
            if node.kind.isTextInput { fields["text"] = .string(node.secure ? Redaction.placeholder : node.text) }
            return .dictionary(fields)
        }
        var snapshot: Fields = [
            "time": .double(simulation.now.seconds),
            "orientation": .string(scene.orientation.rawValue),
            "keyboard": ["visible": .bool(simulation.keyboard.isVisible), "frame": simulation.keyboard.frame.fieldValue],
            "nodes": .array(nodes),
        ]
        snapshot["firstResponder"] = scene.firstResponder.map(FieldValue.string)
        return FieldValue.dictionary(snapshot).jsonText
    }
}
