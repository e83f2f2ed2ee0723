import Testing

@testable import RehearseCore

extension Simulation {
    /// Adds a node with `kind` and `frame` under `parent` (the root when nil), tweaking it with `configure`.
    func addNode(
        _ id: String, _ kind: NodeKind, _ frame: Rect, parent: String? = nil,
        _ configure: (inout Node) -> Void = { _ in }
    ) throws {
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

    /// Moves the clock to `seconds` and injects finger `id`'s event in `phase` at (x, y) then.
    func touch(_ phase: TouchPhase, _ x: Double, _ y: Double, at seconds: Double, id: Int = 1) throws {
        run(until: try #require(VirtualTime.seconds(seconds)))
        try inject(Event(phase, Touch(id: id, point: Point(x: x, y: y))))
    }

    /// Moves a finger from `from` to `to` at 60 Hz over `duration` seconds from `start` (the
    /// finger already down at `from`).
    func slide(from: Point, to: Point, start: Double, duration: Double, id: Int = 1) throws {
        let frames = Int((duration * 60).rounded())
        for frame in 1...frames {
            let progress = Double(frame) / Double(frames)
            try touch(
                .moved, from.x + (to.x - from.x) * progress, from.y + (to.y - from.y) * progress,
                at: start + Double(frame) / 60, id: id)
        }
    }

    /// A finger down at `from`, moved to `to` over `duration` seconds from `start`, held there
    /// `hold` seconds and lifted.
    func drag(from: Point, to: Point, start: Double = 0, duration: Double, hold: Double = 0, id: Int = 1) throws {
        try touch(.began, from.x, from.y, at: start, id: id)
        try slide(from: from, to: to, start: start, duration: duration, id: id)
        try touch(.ended, to.x, to.y, at: start + duration + hold, id: id)
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
