@testable import RehearseCore

extension Simulation {
    /// Adds a node with `kind` and `frame` under `parent` (the root when nil), tweaking it with `configure`.
    func addNode(_ id: String, _ kind: NodeKind, _ frame: Rect, parent: String? = nil,
                 _ configure: (inout Node) -> Void = { _ in }) throws {
        var node = Node(id: id, kind: kind, frame: frame)
        configure(&node)
        try scene.add(node, to: parent)
    }

    /// Records every delivered event from now on.
    func record() -> EventLog {
        let log = EventLog()
        bus.subscribe(.all, owner: "log") { log.events.append($0) }
        return log
    }

    func advance(seconds: Double) {
        advance(by: VirtualTime.seconds(seconds)!)
    }

    func number(_ path: String) throws -> Double {
        guard let number = try value(at: path)?.number else { return .nan }
        return number
    }
}

/// The events a test recorded, in delivery order.
final class EventLog {
    var events: [DeliveredEvent] = []
    var names: [String] { events.map(\.event.name) }

    func names(excluding excluded: Set<String>) -> [String] { names.filter { !excluded.contains($0) } }
}
