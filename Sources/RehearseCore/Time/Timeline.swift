/// The virtual clock and the work scheduled on it. Running to a time takes each due item in
/// (time, insertion) order, moves the clock to it and runs it; the bus delivers everything that
/// item causes before the next one runs.
public final class Timeline {
    /// A piece of scheduled work; `owner` is isolated if it throws.
    private struct Item {
        let owner: String
        /// Whether the item is the clock's own bookkeeping (a display-link vsync, a sampler that
        /// only reads) rather than work still to happen: ``pendingWork(dueBy:)`` leaves it out.
        let isBackground: Bool
        let action: () throws -> Void
    }

    private let bus: EventBus
    // Read on every event and frame; the timeline is used from one thread, so no access overlaps.
    @exclusivity(unchecked) private var scheduler = Scheduler<Item>()

    /// The current virtual time.
    @exclusivity(unchecked) public private(set) var now: VirtualTime = .zero

    /// Creates a timeline at time zero whose failures are reported on `bus`.
    public init(bus: EventBus) {
        self.bus = bus
    }

    /// Runs `action` at `time` (now, if `time` is in the past), after everything already due then.
    /// A `background` item is bookkeeping that never counts as work still to happen (the display
    /// link's vsyncs, which tick as long as anything asks for frames; a sampler that only reads).
    public func schedule(at time: VirtualTime, owner: String, background: Bool = false, _ action: @escaping () throws -> Void) {
        scheduler.schedule(Item(owner: owner, isBackground: background, action: action), at: max(time, now))
    }

    /// The work waiting that is due at or before `time`, background items left out: who owns
    /// each and when it is due, in the order it will run.
    public func pendingWork(dueBy time: VirtualTime) -> [(owner: String, time: VirtualTime)] {
        guard let next = scheduler.nextDueTime, next <= time else { return [] }
        return scheduler.items(dueBy: time).filter { !$0.item.isBackground }.map { ($0.item.owner, $0.time) }
    }

    /// Drops every waiting item (a simulation going away lets go of its plugins' actions).
    func cancelAll() {
        scheduler = Scheduler()
    }

    /// When the next item is due, if any.
    public var nextDueTime: VirtualTime? { scheduler.nextDueTime }

    /// The number of items waiting.
    public var pendingCount: Int { scheduler.count }

    /// The number of items ever scheduled (``Scheduler/scheduledCount``).
    var scheduledCount: UInt64 { scheduler.scheduledCount }

    /// Runs every item due at or before `time`, then moves the clock to `time` (if it is ahead).
    public func run(until time: VirtualTime) {
        _ = run(until: time, atMost: .max)
    }

    /// Runs at most `limit` of the items due at or before `time`, in order. If none is left, moves
    /// the clock to `time` and returns true; otherwise leaves the clock at the last item run and
    /// returns false, so that long work can proceed in slices.
    public func run(until time: VirtualTime, atMost limit: Int) -> Bool {
        var run = 0
        while run < limit, let (due, item) = scheduler.popItem(dueBy: time) {
            run += 1
            move(to: due)
            guard !bus.isIsolated(item.owner) else { continue }
            do {
                try bus.runItem(item.action)
            } catch {
                bus.isolate(item.owner, because: error)
            }
        }
        if let next = scheduler.nextDueTime, next <= time { return false }
        move(to: time)
        return true
    }

    private func move(to time: VirtualTime) {
        guard time > now else { return }
        now = time
        bus.now = time
    }
}
