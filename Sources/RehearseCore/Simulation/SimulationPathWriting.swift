extension Simulation {
    /// Changes the scene at once through a path: `NODE.frame.y`, `NODE.frame` (a whole value),
    /// `NODE.alpha`, `NODE.contentOffset.y` and every other animatable property; `NODE.hidden`,
    /// `NODE.text`, `NODE.secure`, `NODE.returnKey`, `NODE.tag`, `NODE.enablesReturnKeyAutomatically`,
    /// a scroll view's `NODE.decelerationRate`, `NODE.bounces`, `NODE.pagingEnabled`, `NODE.keyboardDismissMode`,
    /// `NODE.scrollEnabled`, `NODE.directionalLockEnabled`, `NODE.alwaysBounceVertical`,
    /// `NODE.alwaysBounceHorizontal` and `NODE.scrollsToTop`; its zooming's `NODE.minimumZoomScale`, `NODE.maximumZoomScale`,
    /// `NODE.bouncesZoom` and `NODE.viewForZooming` (checked as a file's are, as `NODE.zoomScale` is, but for the scale within the limits when neither it nor a limit changes: a pinch may hold it past one); `NODE.accessibilityLabel`, `NODE.accessibilityTraits` and
    /// `NODE.isAccessibilityElement`; and `statusBar.hidden`. Inside an animation transaction animatable changes are animated (a
    /// component path such as `frame.y` animates that component alone).
    /// Throws, changing nothing, for a path that cannot be set or a value of the wrong type.
    public func setValue(_ value: FieldValue, at path: String) throws(PathError) {
        try change(setting: value, at: path)()
    }

    /// Throws what ``setValue(_:at:)`` would throw for the same value and path, changing nothing:
    /// how a scenario's `set` steps are checked before anything runs.
    public func checkSetting(_ value: FieldValue, at path: String) throws(PathError) {
        _ = try change(setting: value, at: path)
    }

    /// The change that sets `value` at `path`, checked but not yet made (it is made at once, or
    /// not at all: it holds the node as it is now).
    private func change(setting value: FieldValue, at path: String) throws(PathError) -> () -> Void {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func fail(_ reason: String) -> PathError { PathError(path: path, reason: reason) }
        func read<Value: FieldConvertible>(_ type: Value.Type) throws(PathError) -> Value {
            do { return try Value(field: value, path: "") } catch { throw fail(error.description) }
        }
        func choice<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) throws(PathError) -> Choice
        where Choice.RawValue == String {
            guard let choice = Choice(rawValue: try read(String.self)) else {
                throw fail("must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return choice
        }
        // A node's text or accessibility label: at most ScenarioLimits.textLength.
        func text() throws(PathError) -> String {
            let text = try read(String.self)
            guard ScenarioLimits.textFits(text) else {
                throw fail(
                    "a text holds at most \(ScenarioLimits.textLength) Unicode scalars (ScenarioLimits.textLength), "
                        + "found \(text.unicodeScalars.count)")
            }
            return text
        }
        if parts == ["statusBar", "hidden"] {
            let hidden = try read(Bool.self)
            // The safe area may change with it: lay out again, as UIKit does.
            return { [scene, layout] in
                scene.statusBarHidden = hidden
                try? layout?.layOutAgain()
            }
        }
        guard parts.count >= 2, let node = scene[parts[0]] else {
            _ = try self.value(at: path)
            throw fail("only node properties and statusBar.hidden can be set")
        }
        if let property = AnimatableProperty(rawValue: parts[1]) {
            if parts.count == 3, let component = property.componentNames.firstIndex(of: parts[2]) {
                let number = try read(Double.self)
                return { [animator] in try? animator.set(number, component: component, of: property, of: node.id) }
            }
            guard parts.count == 2 else {
                _ = try self.value(at: path)
                throw fail("\(parts[1]) has the parts \(property.componentNames.joined(separator: ", "))")
            }
            let vector: SIMD4<Double>
            do { vector = try property.vector(from: value, path: "") } catch { throw fail(error.description) }
            if property == .zoomScale {
                // Checked as a file's is: at 0 the next pinch would divide the zoom view's size by zero.
                var changed = node
                changed.zoomScale = vector[0]
                do { try Zooming.check(changed) } catch { throw fail(error.description) }
            }
            return { [animator] in try? animator.set(vector, for: property, of: node.id) }
        }
        guard parts.count == 2 else { throw fail("\(parts[1]) has no parts") }
        var changed = node
        switch parts[1] {
        case "hidden": changed.hidden = try read(Bool.self)
        case "text": changed.text = try text()
        case "accessibilityLabel": changed.accessibilityLabel = try text()
        case "accessibilityTraits": changed.accessibilityTraits = try read(AccessibilityTraits.self)
        case "isAccessibilityElement": changed.isAccessibilityElement = try read(Bool.self)
        case "secure":
            changed.secure = try read(Bool.self)
            // What was typed while the field was secure stays secret: unmasked, every path read,
            // plugin call and trace after would carry it (only secure fields' texts are redacted).
            guard changed.secure || !node.secure || node.text.isEmpty else {
                throw fail("a secure field keeps its text secret: set its text to \"\" before it stops being secure")
            }
        case "tag": changed.tag = try read(Int.self)
        case "enablesReturnKeyAutomatically": changed.enablesReturnKeyAutomatically = try read(Bool.self)
        case "returnKey": changed.returnKey = try choice(ReturnKey.self)
        case "decelerationRate": changed.decelerationRate = try read(DecelerationRate.self)
        case "bounces": changed.bounces = try read(Bool.self)
        case "scrollEnabled": changed.scrollEnabled = try read(Bool.self)
        case "pagingEnabled": changed.pagingEnabled = try read(Bool.self)
        case "keyboardDismissMode": changed.keyboardDismissMode = try choice(KeyboardDismissMode.self)
        case "directionalLockEnabled": changed.directionalLockEnabled = try read(Bool.self)
        case "alwaysBounceVertical": changed.alwaysBounceVertical = try read(Bool.self)
        case "alwaysBounceHorizontal": changed.alwaysBounceHorizontal = try read(Bool.self)
        case "scrollsToTop": changed.scrollsToTop = try read(Bool.self)
        case "minimumZoomScale": changed.minimumZoomScale = try read(Double.self)
        case "maximumZoomScale": changed.maximumZoomScale = try read(Double.self)
        case "bouncesZoom": changed.bouncesZoom = try read(Bool.self)
        case "viewForZooming": changed.viewForZooming = try read(String.self)
        default:
            _ = try self.value(at: path)
            throw fail("\(parts[1]) cannot be set")
        }
        if Zooming.propertyNames.contains(parts[1]) {
            do { try Zooming.check(changed, scaleWithinLimits: Zooming.scaleAndLimitNames.contains(parts[1])) } catch {
                throw fail(error.description)
            }
            if let view = changed.viewForZooming, !changed.children.contains(view) {
                throw fail(ZoomViewError(scrollView: node.id, view: view, children: changed.children).description)
            }
        }
        return { [scene] in try? scene.update(node.id) { $0 = changed } }
    }
}
