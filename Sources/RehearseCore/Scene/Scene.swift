/// A problem with a scene change: a node that does not exist, or an id used twice or reserved.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownNode(String)
    /// A handle's node is not in the scene any more (and no node has its id).
    case removedNode(String)
    case duplicateNode(String)
    /// The id belongs to the root view or a system path (see ``Scene/reservedIDs``).
    case reservedID(String)
    /// The scene already has ``ScenarioLimits/nodes`` nodes.
    case tooManyNodes(limit: Int)
    /// The node would sit deeper than ``ScenarioLimits/sceneDepth`` below the root.
    case tooDeep(String, limit: Int)

    public var description: String {
        switch self {
        case .unknownNode(let id): "no node with id '\(id)'"
        case .removedNode(let id): "node '\(id)' was removed: a handle to it reads nothing until a node with its id is added"
        case .duplicateNode(let id): "a node with id '\(id)' already exists"
        case .reservedID(let id): "'\(id)' is reserved for the root view and the system paths"
        case .tooManyNodes(let limit): "a scene has at most \(limit) nodes"
        case .tooDeep(let id, let limit):
            "node '\(id)' would be more than \(limit) levels below the root, the deepest a scene goes"
        }
    }
}

/// The tree of nodes on a device's screen, with its orientation, status bar, safe area and first
/// responder. Holds model values only; presentation values come from the ``Animator``.
public final class Scene {
    /// The id of the root view, which always fills the screen.
    public static let rootID = "root"
    /// Ids no node may take: the root's, and the first names of system paths.
    public static let reservedIDs: Set<String> = [
        rootID, "time", "keyboard", "firstResponder", "orientation",
        "statusBar", "safeArea", "children", "topLayoutGuide", "bottomLayoutGuide",
    ]

    /// Nodes in slots, so that reading one property reads it in place; `slots` maps ids to them.
    @exclusivity(unchecked) private var storage: [Node] = []
    /// Read on every look-up by id (a hit test reads one a row); the scene is used from one thread
    /// and no change of it reads it, so no access overlaps.
    @exclusivity(unchecked) private var slots: [String: Int] = [:]
    /// The ids this scene's property handles were made for (``propertyHandle(_:_:presentation:part:)``).
    private var handleIDs = InternedNodeIDs()
    private var freeSlots: [Int] = []
    /// Each slot's node's generation (0 while empty), new each time a slot takes a node, so a
    /// handle to a removed node is known stale.
    @exclusivity(unchecked) private var generations: [UInt64] = []
    /// Each slot's node's children as slots, in drawing order (empty while the slot is): a hit test
    /// walks a scroll view's 1,000 rows without looking one id up. Kept with the nodes' `children`
    /// by ``add(_:to:)``, ``remove(_:)`` and ``update(_:_:)``.
    @exclusivity(unchecked) private var childSlots: [[Int]] = []
    private var nextGeneration: UInt64 = 0
    /// The device whose screen this is.
    public let device: Device
    /// The screen's size in portrait; the bounds swap width and height in landscape.
    public var portraitSize: Size { device.screen }
    /// The interface orientation.
    public var orientation: Orientation = .portrait {
        didSet { try? update(Self.rootID) { [bounds] in $0.frame = bounds } }
    }
    public var statusBarHidden = false
    /// The node that receives text input, if any.
    public internal(set) var firstResponder: String?

    /// Creates a scene with only the root view, filling `device`'s screen in portrait.
    public init(device: Device) {
        self.device = device
        let bounds = Rect(origin: .zero, size: device.screen)
        store(Node(id: Self.rootID, kind: .view, frame: bounds))
    }

    /// The screen's bounds in the current orientation.
    public var bounds: Rect {
        let size =
            orientation.isLandscape
            ? Size(width: portraitSize.height, height: portraitSize.width) : portraitSize
        return Rect(origin: .zero, size: size)
    }

    /// The screen's safe-area insets now (orientation and status bar): what a view controller's
    /// root view has as `safeAreaInsets`.
    public var safeAreaInsets: EdgeInsets {
        device.safeArea(in: orientation, statusBarHidden: statusBarHidden)
    }

    /// The part of the screen the safe area leaves, in screen coordinates.
    public var safeAreaFrame: Rect {
        let insets = safeAreaInsets
        let size = bounds.size
        return Rect(
            x: insets.left, y: insets.top, width: max(size.width - insets.left - insets.right, 0),
            height: max(size.height - insets.top - insets.bottom, 0))
    }

    /// The safe-area insets of the node `id` in its own coordinates, as UIKit gives a view: the
    /// screen's insets less the distance from each screen edge to the node's (never below 0).
    public func safeAreaInsets(of id: String) -> EdgeInsets? {
        guard let frame = frameInScreen(id) else { return nil }
        let safe = safeAreaFrame
        return EdgeInsets(
            top: max(safe.minY - frame.minY, 0), left: max(safe.minX - frame.minX, 0),
            bottom: max(frame.maxY - safe.maxY, 0), right: max(frame.maxX - safe.maxX, 0))
    }

    /// The node with `id`, if any.
    public subscript(id: String) -> Node? { slots[id].map { storage[$0] } }

    /// What hit-testing reads of the node in `slot`, stored field by stored field in place (the
    /// node is not copied out, as reading the computed `boundsOrigin` of it did): whether it shows
    /// (not hidden, alpha at least 0.01), its frame and its bounds' origin.
    @inline(__always)
    func hitGeometry(atSlot slot: Int) -> (shows: Bool, frame: Rect, boundsOrigin: Point) {
        let origin = Node.boundsOrigin(kind: storage[slot].kind, contentOffset: storage[slot].contentOffset)
        return (!storage[slot].hidden && storage[slot].alpha >= 0.01, storage[slot].frame, origin)
    }

    /// The id of the node in `slot`.
    func id(atSlot slot: Int) -> String { storage[slot].id }

    /// The slots of the children of the node in `slot`, in drawing order.
    func childSlots(atSlot slot: Int) -> [Int] { childSlots[slot] }

    /// The children of the node with `id`, read in place (without copying the node out), if there is one.
    public func children(of id: String) -> [String]? { read(id) { $0.children } }

    /// `body`'s answer about the node with `id`, read in place (the node is not copied out), if there is one.
    public func read<Value, Failure: Error>(_ id: String, _ body: (Node) throws(Failure) -> Value) throws(Failure) -> Value? {
        guard let slot = slots[id] else { return nil }
        return try body(storage[slot])
    }

    /// Whether a node with `id` exists.
    public func contains(_ id: String) -> Bool { slots[id] != nil }

    /// Whether the node a handle names is in the scene (its own, or one added again with its id).
    func contains(_ handle: NodeHandle) -> Bool { slot(of: handle) != nil }

    /// Called with the slot of each node being removed (the animator drops its animations).
    var onRemove: ((Int) -> Void)?

    /// The storage slot of a node: stable while the node exists, reused after it is removed.
    func slot(of id: String) -> Int? { slots[id] }

    /// A handle to the node with `id`, for reads that skip the id lookup; `nil` if there is none.
    public func handle(_ id: String) -> NodeHandle? {
        slots[id].map { NodeHandle(id: id, slot: $0, generation: generations[$0]) }
    }

    /// The slot of the node a handle names: its resolved slot while that node is still there, else
    /// the slot of the node with its id now (a child re-added after removal), if any.
    @inline(__always)
    func slot(of handle: NodeHandle) -> Int? {
        slot(handle.slot, generation: handle.generation, else: handle.id)
    }

    /// ``slot(of:)-(NodeHandle)`` for a property handle's node.
    @inline(__always)
    func slot(of handle: PropertyHandle) -> Int? {
        slot(handle.slot, generation: handle.generation, else: id(of: handle))
    }

    /// A handle to `property` of `node` (a node of this scene), its id kept in this scene's table.
    func propertyHandle(
        _ property: AnimatableProperty, of node: NodeHandle, presentation: Bool, part: PropertyPart = .whole
    ) -> PropertyHandle {
        PropertyHandle(
            node: node, nodeID: handleIDs.number(of: node.id), property: property, presentation: presentation, part: part)
    }

    /// The id of the node `handle` reads.
    func id(of handle: PropertyHandle) -> String { handleIDs[handle.nodeID] }

    /// `slot` while it still holds the node of `generation`, else the slot of the node with `id` now.
    @inline(__always)
    private func slot(_ slot: Int, generation: UInt64, else id: @autoclosure () -> String) -> Int? {
        if slot < generations.count, generations[slot] == generation { return slot }
        return slots[id()]
    }

    /// The node a handle names, if it is in the scene.
    public subscript(handle: NodeHandle) -> Node? { slot(of: handle).map { storage[$0] } }

    /// `body`'s answer about the node a handle names, read in place, if it is in the scene.
    public func read<Value, Failure: Error>(_ handle: NodeHandle, _ body: (Node) throws(Failure) -> Value) throws(Failure)
        -> Value?
    {
        guard let slot = slot(of: handle) else { return nil }
        return try body(storage[slot])
    }

    /// The model value of one property of the node in `slot`, read in place.
    @inline(__always)
    func modelValue(of property: AnimatableProperty, atSlot slot: Int) -> SIMD4<Double> {
        storage[slot][property]
    }

    /// Sets the model value of one property of the node in `slot`, in place.
    func setModelValue(_ value: SIMD4<Double>, of property: AnimatableProperty, atSlot slot: Int) {
        storage[slot][property] = value
    }

    /// Puts `node`, which has no children, in a free slot or a new one, and returns the slot.
    @discardableResult
    private func store(_ node: Node) -> Int {
        nextGeneration += 1
        if let slot = freeSlots.popLast() {
            storage[slot] = node
            generations[slot] = nextGeneration
            slots[node.id] = slot
            return slot
        }
        slots[node.id] = storage.count
        storage.append(node)
        generations.append(nextGeneration)
        childSlots.append([])
        return storage.count - 1
    }

    /// The scene's nodes and state as values: a set-up built again and again starts each build's
    /// scene from the one its first build's plugins left (``SetupMemo``). Its arrays are shared
    /// with the scenes restored from it until one changes them.
    struct Snapshot {
        fileprivate let storage: [Node]
        fileprivate let slots: [String: Int]
        fileprivate let freeSlots: [Int]
        fileprivate let generations: [UInt64]
        fileprivate let childSlots: [[Int]]
        fileprivate let nextGeneration: UInt64
        fileprivate let orientation: Orientation
        fileprivate let statusBarHidden: Bool
        fileprivate let firstResponder: String?
        /// The ids of property handles made on the scene: a handle a plugin kept from the first
        /// build reads the restored scene.
        fileprivate let handleIDs: InternedNodeIDs
    }

    /// This scene now, nodes, slots and generations included (what a handle resolved on it finds).
    func snapshot() -> Snapshot {
        Snapshot(
            storage: storage, slots: slots, freeSlots: freeSlots, generations: generations, childSlots: childSlots,
            nextGeneration: nextGeneration,
            orientation: orientation, statusBarHidden: statusBarHidden, firstResponder: firstResponder,
            handleIDs: handleIDs)
    }

    /// Creates the scene of `device` that `snapshot` was taken of (a scene of the same device): no
    /// root made, nothing added one by one.
    init(device: Device, restoring snapshot: Snapshot) {
        self.device = device
        orientation = snapshot.orientation
        (storage, slots, freeSlots, generations) = (snapshot.storage, snapshot.slots, snapshot.freeSlots, snapshot.generations)
        childSlots = snapshot.childSlots
        nextGeneration = snapshot.nextGeneration
        statusBarHidden = snapshot.statusBarHidden
        firstResponder = snapshot.firstResponder
        handleIDs = snapshot.handleIDs
    }

    /// Every node id, parents before children, siblings in drawing order.
    public var allIDs: [String] {
        var ids: [String] = []
        var stack = [Self.rootID]
        while let id = stack.popLast() {
            ids.append(id)
            stack.append(contentsOf: (children(of: id) ?? []).reversed())
        }
        return ids
    }

    /// Adds `node` on top of `parent`'s children (the root when `nil`).
    public func add(_ node: Node, to parent: String? = nil) throws(SceneError) {
        let parentID = parent ?? Self.rootID
        guard !Self.reservedIDs.contains(node.id) else { throw SceneError.reservedID(node.id) }
        guard !contains(node.id) else { throw SceneError.duplicateNode(node.id) }
        guard let parentSlot = slots[parentID] else { throw SceneError.unknownNode(parentID) }
        guard slots.count < ScenarioLimits.nodes else { throw SceneError.tooManyNodes(limit: ScenarioLimits.nodes) }
        guard ancestors(of: parentID).count < ScenarioLimits.sceneDepth else {
            throw SceneError.tooDeep(node.id, limit: ScenarioLimits.sceneDepth)
        }
        var node = node
        node.parent = parentID
        node.children = []
        storage[parentSlot].children.append(node.id)
        childSlots[parentSlot].append(store(node))
    }

    /// Removes a node and everything below it; the first responder is cleared if it was among them.
    public func remove(_ id: String) throws(SceneError) {
        guard id != Self.rootID, let node = self[id] else { throw SceneError.unknownNode(id) }
        if let parent = node.parent { try update(parent) { $0.children.removeAll { $0 == id } } }
        var stack = [id]
        while let next = stack.popLast(), let slot = slots.removeValue(forKey: next) {
            stack.append(contentsOf: storage[slot].children)
            onRemove?(slot)
            generations[slot] = 0
            childSlots[slot] = []
            freeSlots.append(slot)
            if firstResponder == next { firstResponder = nil }
        }
    }

    /// Changes a node's model values at once (no animation).
    public func update(_ id: String, _ change: (inout Node) -> Void) throws(SceneError) {
        guard let slot = slots[id] else { throw SceneError.unknownNode(id) }
        let children = storage[slot].children
        // In place: a copy of the node would share its text, so appending to it copied the whole text.
        change(&storage[slot])
        // Children changed (one removed, or a node written whole): their slots follow. Unchanged,
        // the arrays are one and the same, which `!=` sees at once.
        if storage[slot].children != children { childSlots[slot] = storage[slot].children.compactMap { slots[$0] } }
    }

    /// The node's ancestors, nearest first, ending with the root.
    public func ancestors(of id: String) -> [String] {
        var result: [String] = []
        var current = self[id]?.parent
        while let parent = current {
            result.append(parent)
            current = self[parent]?.parent
        }
        return result
    }

    /// The node's frame in screen coordinates, from model values.
    public func frameInScreen(_ id: String) -> Rect? {
        var read = 0
        return frameInScreen(id, read: &read)
    }

    /// ``frameInScreen(_:)``, adding to `read` the nodes it reads (the node and its ancestors).
    public func frameInScreen(_ id: String, read: inout Int) -> Rect? {
        guard let node = self[id] else { return nil }
        read += 1
        var frame = node.frame
        var current = node.parent
        while let parentID = current, let parent = self[parentID] {
            read += 1
            frame.origin.x += parent.frame.minX - parent.boundsOrigin.x
            frame.origin.y += parent.frame.minY - parent.boundsOrigin.y
            current = parent.parent
        }
        return frame
    }
}
