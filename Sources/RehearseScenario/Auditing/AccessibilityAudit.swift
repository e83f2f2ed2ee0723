import RehearseCore

/// The scene now against every ``AccessibilityRule``: what each visible node breaks, in reading
/// order (parents before children, siblings in drawing order).
enum AccessibilityAudit {
    /// One rule broken by one node now.
    struct Breach {
        var rule: AccessibilityRule
        var node: String
        var message: String

        /// Which rule and node: the same breach from step to step, whatever its numbers.
        var key: [String] { [rule.rawValue, node] }
    }

    /// The breaches now; `read` counts the nodes looked at, which a run's budget bounds
    /// (``WorkBudget/maximumQueriedNodes``).
    static func breaches(in simulation: Simulation, read: inout Int) -> [Breach] {
        let scene = simulation.scene
        var found: [Breach] = []
        let ids = scene.allIDs
        read += ids.count
        for id in ids {
            guard let node = scene[id], AccessibilityRule.isInteractive(node) else { continue }
            let visibility = simulation.visibility(of: id)
            let focused = scene.firstResponder == id
            // A focused field behind the keyboard is the third rule's; it is no target then.
            guard visibility.isVisible || (focused && visibility.problem == .coveredByKeyboard), let frame = visibility.frame
            else { continue }
            let size = frame.size
            if min(size.width, size.height) < AccessibilityRule.minimumTouchTarget {
                found.append(
                    Breach(
                        rule: .touchTarget, node: id,
                        message: "it is \(Visibility.points(size.width)) × "
                            + "\(Visibility.points(size.height)) pt on screen, less than 44 × 44 pt"))
            }
            if node.accessibilityLabel?.isEmpty ?? true, node.kind.isTextInput || node.text.isEmpty {
                found.append(
                    Breach(
                        rule: .label, node: id,
                        message: node.kind.isTextInput
                            ? "a text field without an accessibility label: VoiceOver reads only \"text field\""
                            : "no accessibility label and no text: VoiceOver reads only its role"))
            }
            if focused, !simulation.keyboard.isMoving, let covered = frame.intersection(simulation.keyboard.frame),
                covered.size.height >= Visibility.minimumVisibleSide
            {
                found.append(
                    Breach(
                        rule: .coveredByKeyboard, node: id,
                        message: "the keyboard covers \(Visibility.points(covered.size.height)) "
                            + "of its \(Visibility.points(size.height)) pt of height"))
            }
        }
        return found + focusOrderBreaches(in: scene, read: &read)
    }

    /// Each interactive text field on screen whose next field by tag (the one tagged one more,
    /// where Return moves focus) is above it, or level with it and not to its right.
    private static func focusOrderBreaches(in scene: Scene, read: inout Int) -> [Breach] {
        var fields: [Int: (id: String, frame: Rect)] = [:]
        for id in scene.allIDs {
            guard let node = scene[id], node.kind.isTextInput, node.tag != 0, AccessibilityRule.isInteractive(node),
                fields[node.tag] == nil, let frame = scene.frameInScreen(id, read: &read)
            else { continue }
            fields[node.tag] = (id, frame)
        }
        return fields.keys.sorted().compactMap { tag in
            guard let field = fields[tag], let next = fields[tag + 1],
                (next.frame.minY, next.frame.minX) <= (field.frame.minY, field.frame.minX)
            else { return nil }
            return Breach(
                rule: .focusOrder, node: field.id,
                message: "Return moves from it (tag \(tag)) to \(next.id) (tag \(tag + 1)), which is above it or to its left")
        }
    }
}
