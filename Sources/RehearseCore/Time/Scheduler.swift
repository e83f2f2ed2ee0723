import HeapModule

/// A queue of work due at virtual times, taken in (time, insertion sequence) order.
///
/// Two items due at the same time come out in the order they were scheduled, which is what
/// makes a run reproducible byte for byte.
public struct Scheduler<Item> {
    private struct Entry: Comparable {
        let time: VirtualTime
        let sequence: UInt64
        let item: Item

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.time == rhs.time && lhs.sequence == rhs.sequence
        }
    }

    private var heap = Heap<Entry>()
    private var nextSequence: UInt64 = 0

    /// Creates an empty scheduler.
    public init() {}

    /// Adds `item`, due at `time`, after every item already due at that time.
    public mutating func schedule(_ item: Item, at time: VirtualTime) {
        heap.insert(Entry(time: time, sequence: nextSequence, item: item))
        nextSequence += 1
    }

    /// When the earliest item is due, if any.
    public var nextDueTime: VirtualTime? { heap.min?.time }

    /// Removes and returns the earliest item if it is due at or before `time`.
    public mutating func popItem(dueBy time: VirtualTime) -> (time: VirtualTime, item: Item)? {
        guard let first = heap.min, first.time <= time else { return nil }
        _ = heap.removeMin()
        return (first.time, first.item)
    }

    /// The items due at or before `time`, in the order they will be taken.
    public func items(dueBy time: VirtualTime) -> [(time: VirtualTime, item: Item)] {
        heap.unordered.filter { $0.time <= time }.sorted().map { ($0.time, $0.item) }
    }

    /// The number of items waiting.
    public var count: Int { heap.count }

    /// The number of items ever scheduled: unchanged between two calls, nothing was scheduled between them.
    public var scheduledCount: UInt64 { nextSequence }

    /// Drops every item.
    public mutating func removeAll() {
        heap = Heap()
    }
}
