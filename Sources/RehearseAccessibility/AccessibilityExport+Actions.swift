import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// `Component` (where a node is, what is at a point) and what changes the simulation: `Action`
/// (a tap on the node, a scroll view's drag) and `EditableText` (text typed into a field), refused
/// in read-only mode.
extension AccessibilityExport {
    /// One of a node's actions: its name, its description and what it does to the node.
    struct Action {
        var name: String
        var description: String
        var effect: Effect
    }

    /// What an action does: inject an event on the node, or drag a scroll view by half its size
    /// the way its content moves.
    enum Effect {
        case event(String)
        case scroll(ScrollDirection)
    }

    /// Where a scroll action takes a scroll view's content: `down` and `right` toward its end
    /// (the finger drags it up, or left), `up` and `left` toward its start.
    enum ScrollDirection: String, CaseIterable {
        case up, down, left, right

        /// The drag that scrolls so in a view of `size`: half its height, or half its width.
        func drag(in size: Size) -> (x: Double, y: Double) {
            switch self {
            case .up: (0, (size.height / 2).rounded())
            case .down: (0, -(size.height / 2).rounded())
            case .left: ((size.width / 2).rounded(), 0)
            case .right: (-(size.width / 2).rounded(), 0)
            }
        }

        /// Which way the finger drags the content.
        var contentMoves: String {
            switch self {
            case .up: "down"
            case .down: "up"
            case .left: "right"
            case .right: "left"
            }
        }
    }

    /// A node's actions: `click` and `press` tap a control, as a finger would; a text field's
    /// `activate` is its return key (GTK's entries name it so: Next, Go, Done); a scroll view's
    /// `scroll up` and `scroll down` drag it by half its height, as `scroll-until-visible` does,
    /// and one that scrolls across has `scroll left` and `scroll right`, half its width.
    static func actions(of item: AccessibleTree.Item) -> [Action] {
        if item.role == .scrollPane {
            let directions: [ScrollDirection] = item.scrollsSideways ? ScrollDirection.allCases : [.up, .down]
            return directions.map { direction in
                Action(
                    name: "scroll \(direction.rawValue)",
                    description: "Drags the content \(direction.contentMoves) by half the view", effect: .scroll(direction))
            }
        }
        guard item.isActionable || item.isEditable else { return [] }
        return [
            Action(name: "click", description: "Taps the node", effect: .event("tap")),
            Action(name: "press", description: "Taps the node", effect: .event("tap")),
        ]
            + (item.isEditable
                ? [Action(name: "activate", description: "Presses the return key for the field", effect: .event("return"))] : [])
    }
    /// `ATSPI_COORD_TYPE_SCREEN`, `_WINDOW` (the simulated screen is the one window) and `_PARENT`.
    static let coordinateTypes: ClosedRange<UInt32> = 0...2
    /// `ATSPI_LAYER_WIDGET`.
    static let widgetLayer: UInt32 = 3

    func respondAsComponent(
        _ request: inout Request, on item: AccessibleTree.Item, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        switch request.member {
        case "GetExtents":
            try request.expect("u")
            let frame = try self.frame(of: item, in: try coordinates(&request), session: session)
            AccessibleProperty.appendRect(frame, to: &reply)
        case "GetPosition":
            try request.expect("u")
            let frame = try self.frame(of: item, in: try coordinates(&request), session: session)
            reply.append(Self.integer(frame.minX))
            reply.append(Self.integer(frame.minY))
        case "GetSize":
            try request.expect("")
            reply.append(Self.integer(item.frame.size.width))
            reply.append(Self.integer(item.frame.size.height))
        case "Contains", "GetAccessibleAtPoint":
            try request.expect("iiu")
            let x = try request.int32()
            let y = try request.int32()
            let origin = try self.frame(of: item, in: try coordinates(&request), session: session).origin
            // The point in screen coordinates: shifted as the object's frame was.
            let point = Point(x: Double(x) - origin.x + item.frame.minX, y: Double(y) - origin.y + item.frame.minY)
            let found = tree(of: session).item(at: point, under: item.id)
            if request.member == "Contains" {
                reply.append(item.frame.contains(point))
            } else {
                (found.map { reference(of: $0.id) } ?? nullReference).appendStruct(to: &reply)
            }
        case "GetLayer":
            try request.expect("")
            reply.append(Self.widgetLayer)
        case "GetAlpha":
            try request.expect("")
            reply.append(item.alpha)
        case "GrabFocus":
            try request.expect("")
            guard item.isEditable else { return reply.append(false) }
            try inject("focus", ["target": .string(item.id)], by: "GrabFocus", into: session)
            reply.append(true)
        default:
            throw request.unknown(Self.component)
        }
    }

    func respondAsAction(
        _ request: inout Request, on item: AccessibleTree.Item, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        if request.member == "GetActions" {
            try request.expect("")
            reply.container(DBusType.array, "(sss)") { array in
                for action in Self.actions(of: item) {
                    array.container(DBusType.struct, nil) { fields in
                        fields.append(action.name)
                        fields.append(action.description)
                        fields.append("")
                    }
                }
            }
            return
        }
        guard ["DoAction", "GetName", "GetLocalizedName", "GetDescription", "GetKeyBinding"].contains(request.member) else {
            throw request.unknown(Self.action)
        }
        try request.expect("i")
        let index = try request.int32()
        let actions = Self.actions(of: item)
        guard index >= 0, Int(index) < actions.count else {
            throw MethodFailure(.invalidArgs, "no action at index \(index): the node has \(actions.count)")
        }
        let action = actions[Int(index)]
        switch request.member {
        case "DoAction":
            try perform(action, on: item, session: session)
            reply.append(true)
        case "GetName", "GetLocalizedName": reply.append(action.name)
        case "GetDescription": reply.append(action.description)
        default: reply.append("")
        }
    }

    func respondAsEditableText(
        _ request: inout Request, on item: AccessibleTree.Item, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        try refuseWhenReadOnly(request.member)
        let text: String
        switch request.member {
        case "InsertText":
            try request.expect("isi")
            _ = try request.int32()
            text = try request.string()
            _ = try request.int32()
        case "SetTextContents":
            try request.expect("s")
            let contents = try request.string()
            // The simulation types and never deletes: only what extends the text now can be set,
            // and a secure field only when empty (comparing its text would tell how it starts).
            let current = session.simulation.scene[item.id]?.text ?? ""
            let secure = item.role == .passwordText
            guard current.isEmpty || (!secure && contents.unicodeScalars.starts(with: current.unicodeScalars)) else {
                throw MethodFailure(
                    .notPermitted,
                    "SetTextContents only adds to the end of a field's text (the simulation types, it does not "
                        + "delete)" + (secure ? ", and sets a secure field only while it is empty" : ""))
            }
            text = String(contents.unicodeScalars.dropFirst(current.unicodeScalars.count))
        default:
            throw request.unknown(Self.editableText)
        }
        // Typed where typing puts it (the end of the field's text), as the keyboard would.
        if !text.isEmpty {
            try inject("text", ["target": .string(item.id), "text": .string(text)], by: request.member, into: session)
        }
        reply.append(true)
    }

    /// Does `action` to `item`: its event injected now, or its drag put on the clock from now
    /// (held still 0.1 s before it lifts, so the content stops where the finger left it).
    private func perform(_ action: Action, on item: AccessibleTree.Item, session: SimulatorSession) throws(MethodFailure) {
        let member = "DoAction (\(action.name))"
        switch action.effect {
        case .event(let name):
            try inject(name, ["target": .string(item.id)], by: member, into: session)
        case .scroll(let direction):
            try refuseWhenReadOnly(member)
            let distance = direction.drag(in: item.frame.size)
            let drag: Fields = [
                "on": .string(item.id), "by": .array([.double(distance.x), .double(distance.y)]), "hold": .double(0.1),
            ]
            do { _ = try session.scheduleGesture("drag", drag) } catch { throw MethodFailure(error) }
        }
    }

    /// Injects the event `name` with `fields` as `Inject` does (with its checks and limits);
    /// refused in read-only mode. The round's tree is built again for the calls after it, which
    /// see the scene it changed (a client's `InsertText`, then its `GetText`, in one write).
    private func inject(_ name: String, _ fields: Fields, by member: String, into session: SimulatorSession) throws(MethodFailure)
    {
        try refuseWhenReadOnly(member)
        do {
            _ = try session.inject(name, fields)
        } catch {
            throw MethodFailure(error)
        }
        roundTree = nil
    }

    /// Refuses `member`, which changes the simulation, in read-only mode.
    private func refuseWhenReadOnly(_ member: String) throws(MethodFailure) {
        guard !readOnly else {
            throw MethodFailure(.notPermitted, "the simulation is read-only (--read-only): \(member) changes it")
        }
    }

    private func coordinates(_ request: inout Request) throws(MethodFailure) -> UInt32 {
        let type = try request.uint32()
        guard Self.coordinateTypes.contains(type) else {
            throw MethodFailure(.invalidArgs, "coordinate type \(type): 0 (screen), 1 (window) or 2 (parent)")
        }
        return type
    }

    /// `item`'s frame in coordinates of `type`: the screen's (the window is the screen) or its parent's.
    private func frame(of item: AccessibleTree.Item, in type: UInt32, session: SimulatorSession) throws(MethodFailure) -> Rect {
        guard type == 2, let parent = item.parent.flatMap({ tree(of: session)[$0] }) else { return item.frame }
        var frame = item.frame
        frame.origin = Point(x: frame.minX - parent.frame.minX, y: frame.minY - parent.frame.minY)
        return frame
    }

    /// A coordinate as AT-SPI's int32, rounded and held in its range.
    static func integer(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32(max(min(value.rounded(), Double(Int32.max)), Double(Int32.min)))
    }
}
