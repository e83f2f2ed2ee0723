import DequeModule

/// Identifies one subscription, for ``EventBus/unsubscribe(_:)``.
public struct SubscriptionToken: Hashable, Sendable {
    fileprivate let id: UInt64
}

/// Which events a subscription receives.
public enum EventSelector: Hashable, Sendable {
    /// Every event.
    case all
    /// The events with one of these names.
    case names(Set<String>)

    /// The events with this name.
    public static func name(_ name: String) -> EventSelector { .names([name]) }
}

/// The core event bus: stamps events with a sequence number and the current time, and delivers
/// them run-to-completion: an event published while another is being delivered waits in a FIFO
/// queue and is delivered after it, before time can move.
///
/// A handler that throws isolates its owner: all of the owner's subscriptions are dropped and a
/// `plugin.failed` event is published; the other subscribers go on.
public final class EventBus {
    /// Receives delivered events. Throwing isolates the subscription's owner.
    public typealias Handler = (DeliveredEvent) throws -> Void

    /// One subscription; its owner is an index into ``owners``, so delivering copies no string.
    private struct Subscriber {
        let token: SubscriptionToken
        let owner: Int
        let handler: Handler
    }

    // The properties read on every delivery skip the runtime exclusivity checks: the bus is used
    // from one thread and never hands out references to them, so no access can overlap.
    @exclusivity(unchecked) private var builtinSubscribers = [[Subscriber]](repeating: [], count: Event.builtinNames.count)
    @exclusivity(unchecked) private var customSubscribers: [String: [Subscriber]] = [:]
    @exclusivity(unchecked) private var wildcardSubscribers: [Subscriber] = []
    @exclusivity(unchecked) private var queue = Deque<DeliveredEvent>()
    @exclusivity(unchecked) private var isDelivering = false
    /// The events delivered since the event that started the current delivery was published.
    @exclusivity(unchecked) private var cascadeCount = 0
    /// Subscriptions made and ended while an event was being delivered, made once it has been.
    @exclusivity(unchecked) private var deferredChanges: [Change] = []
    /// Every owner that subscribed, by index, and whether it has been isolated; ``anyIsolated``
    /// skips the look-up while none has. A bus has a handful of owners (a simulation's services
    /// and plugins): they are found by comparing names, no name hashed.
    @exclusivity(unchecked) private var owners: [(name: String, isolated: Bool)] = []
    @exclusivity(unchecked) private var anyIsolated = false
    private var nextToken: UInt64 = 0

    /// The time stamped on published events; the simulation moves it.
    @exclusivity(unchecked) public var now: VirtualTime = .zero
    /// The sequence number of the last published event (0 before any).
    @exclusivity(unchecked) public private(set) var lastSequence: UInt64 = 0
    /// Called after the set of subscriptions changed (the display link watches `tick` demand).
    public var onSubscriptionsChanged: (() -> Void)?
    /// Called once a published event and everything it caused have been delivered, or, for what
    /// a timeline item publishes, once the item is done (the simulation checks its invariants there).
    @exclusivity(unchecked) public var afterDelivery: (() -> Void)?
    /// Set while a timeline item runs: ``afterDelivery`` waits for its end.
    @exclusivity(unchecked) private var isRunningItem = false

    /// Creates an empty bus.
    public init() {
        // Room for a simulation's owners (its services and a few plugins), made once, not grown.
        owners.reserveCapacity(16)
    }

    private func ownerIndex(_ owner: String) -> Int {
        // Looked for from the end: an owner subscribes several times in a row (a plugin's install,
        // a service's), so it is found at the first comparison.
        if let index = owners.lastIndex(where: { $0.name == owner }) { return index }
        owners.append((owner, false))
        return owners.count - 1
    }

    /// Subscribes `owner`'s `handler` to the events `selector` picks. A subscription by an owner
    /// that has been isolated is refused and returns `nil`.
    @discardableResult
    public func subscribe(
        _ selector: EventSelector, owner: String,
        handler: @escaping Handler
    ) -> SubscriptionToken? {
        subscribe(owner: owner, handler: handler) { .add(selector, $0) }
    }

    /// ``subscribe(_:owner:handler:)`` to the built-in `event` alone, by its slot (no set of names
    /// made, no name looked up): what typed subscriptions use.
    @usableFromInline @discardableResult
    func subscribe(slotOf event: BuiltinEvent, owner: String, handler: @escaping Handler) -> SubscriptionToken? {
        subscribe(owner: owner, handler: handler) { .addBuiltin(slot: event.rawValue, $0) }
    }

    /// ``subscribe(_:owner:handler:)`` to the event named `name` alone, with no set of names made:
    /// what a plugin's subscription by name or by event type uses.
    @discardableResult
    func subscribe(toEventNamed name: String, owner: String, handler: @escaping Handler) -> SubscriptionToken? {
        subscribe(owner: owner, handler: handler) { .addNamed(name, $0) }
    }

    /// ``subscribe(toEventNamed:owner:handler:)`` to a name no built-in event has, with no
    /// built-in name looked up: what a plugin's subscription by event type uses (the vocabulary
    /// refuses a plugin event type under a built-in name).
    @discardableResult
    func subscribe(toCustomEventNamed name: String, owner: String, handler: @escaping Handler) -> SubscriptionToken? {
        subscribe(owner: owner, handler: handler) { .addCustom(name, $0) }
    }

    private func subscribe(owner: String, handler: @escaping Handler, as adding: (Subscriber) -> Change) -> SubscriptionToken? {
        guard !isIsolated(owner) else { return nil }
        nextToken += 1
        let subscriber = Subscriber(token: SubscriptionToken(id: nextToken), owner: ownerIndex(owner), handler: handler)
        change(adding(subscriber))
        return subscriber.token
    }

    /// Ends every subscription (a simulation going away lets go of its plugins' handlers).
    func removeAllSubscriptions() {
        change(.removeAll)
    }

    /// Ends a subscription. Unknown tokens are ignored.
    public func unsubscribe(_ token: SubscriptionToken) {
        removeSubscribers { $0.token == token }
    }

    /// The number of subscriptions that receive events named `name`, not counting those to all events.
    public func subscriberCount(for name: String) -> Int {
        if let slot = Event.builtinSlots[name] { return subscriberCount(forSlot: slot) }
        return customSubscribers[name]?.count ?? 0
    }

    /// The number of subscriptions to the built-in event in `slot` (see ``Event/builtinSlot``).
    public func subscriberCount(forSlot slot: Int) -> Int {
        builtinSubscribers[slot].count
    }

    /// Whether `owner` threw and was isolated.
    public func isIsolated(_ owner: String) -> Bool {
        anyIsolated && owners.last(where: { $0.name == owner })?.isolated == true
    }

    /// Publishes `event` on behalf of `source` and, unless a delivery is already under way,
    /// delivers it and everything it causes before returning. Returns the event's sequence number.
    @discardableResult
    public func publish(_ event: Event, source: String) -> UInt64 {
        lastSequence += 1
        let delivered = DeliveredEvent(sequence: lastSequence, time: now, event: event, source: source)
        guard !isDelivering else {
            queue.append(delivered)
            return delivered.sequence
        }
        cascadeCount = 0
        deliverThenApplyChanges(delivered)
        while !queue.isEmpty { deliverThenApplyChanges(queue.removeFirst()) }
        if !isRunningItem { afterDelivery?() }
        return delivered.sequence
    }

    /// Whether the event being delivered and the events it caused, delivered and waiting, reach
    /// ``ScenarioLimits/cascadeEvents``: then no more may be published until they are delivered.
    public var isCascadeFull: Bool {
        isDelivering && cascadeCount + queue.count >= ScenarioLimits.cascadeEvents
    }

    /// Runs a timeline item: what it publishes, in one or several events, is one change to the
    /// simulation, so ``afterDelivery`` is called once, when it is done.
    func runItem(_ action: () throws -> Void) rethrows {
        isRunningItem = true
        defer {
            isRunningItem = false
            afterDelivery?()
        }
        try action()
    }

    /// Delivers one event, then makes the subscription changes its handlers asked for.
    @inline(__always)
    private func deliverThenApplyChanges(_ delivered: DeliveredEvent) {
        cascadeCount += 1
        isDelivering = true
        deliver(delivered)
        isDelivering = false
        if !deferredChanges.isEmpty { applyDeferredChanges() }
    }

    private func deliver(_ delivered: DeliveredEvent) {
        // The lists are read in place, by index: they do not change while an event is delivered.
        if let slot = delivered.event.builtinSlot {
            var index = 0
            while index < builtinSubscribers[slot].count {
                call(builtinSubscribers[slot][index], with: delivered)
                index += 1
            }
        } else if case .custom(let name, _) = delivered.event, let subscribers = customSubscribers[name] {
            for subscriber in subscribers { call(subscriber, with: delivered) }
        }
        var index = 0
        while index < wildcardSubscribers.count {
            call(wildcardSubscribers[index], with: delivered)
            index += 1
        }
    }

    @inline(__always)
    private func call(_ subscriber: Subscriber, with delivered: DeliveredEvent) {
        if anyIsolated, owners[subscriber.owner].isolated { return }
        do {
            try subscriber.handler(delivered)
        } catch {
            isolate(ownerAt: subscriber.owner, because: error)
        }
    }

    /// ``isolate(_:because:)`` by owner index; kept out of line so delivering touches no owner name.
    @inline(never)
    private func isolate(ownerAt index: Int, because error: any Error) {
        isolate(owners[index].name, because: error)
    }

    /// Isolates `owner`: drops its subscriptions, refuses new ones and publishes `plugin.failed`.
    public func isolate(_ owner: String, because error: any Error) {
        guard !isIsolated(owner) else { return }
        let index = ownerIndex(owner)
        owners[index].isolated = true
        anyIsolated = true
        removeSubscribers { $0.owner == index }
        publish(.pluginFailed(PluginFailure(plugin: owner, error: String(describing: error))), source: "bus")
    }

    private func removeSubscribers(where shouldRemove: @escaping (Subscriber) -> Bool) {
        change(.remove(shouldRemove))
    }

    // MARK: Changing the subscriber lists

    /// A change to the subscriber lists.
    private enum Change {
        case add(EventSelector, Subscriber)
        /// A subscription to the built-in event in `slot`.
        case addBuiltin(slot: Int, Subscriber)
        /// A subscription to the event with this name.
        case addNamed(String, Subscriber)
        /// A subscription to the event with this name, which no built-in event has.
        case addCustom(String, Subscriber)
        case remove((Subscriber) -> Bool)
        case removeAll
    }

    /// Makes `change` now, or, while an event is being delivered, once it has been: delivery reads
    /// the lists in place (no copy, no reference counting), so they must not change under it. A
    /// subscription made while an event is delivered thus receives the events after it, as before.
    private func change(_ change: Change) {
        if isDelivering {
            deferredChanges.append(change)
        } else {
            apply(change)
            onSubscriptionsChanged?()
        }
    }

    @inline(never)  // Rare: kept out of the delivery loop.
    private func applyDeferredChanges() {
        let changes = deferredChanges
        deferredChanges = []
        for change in changes { apply(change) }
        onSubscriptionsChanged?()
    }

    private func apply(_ change: Change) {
        switch change {
        case .addBuiltin(let slot, let subscriber):
            builtinSubscribers[slot].append(subscriber)
        case .addNamed(let name, let subscriber):
            add(subscriber, toEventNamed: name)
        case .addCustom(let name, let subscriber):
            add(subscriber, toCustomEventNamed: name)
        case .add(.all, let subscriber):
            wildcardSubscribers.append(subscriber)
        case .add(.names(let names), let subscriber) where names.count == 1:
            for name in names { add(subscriber, toEventNamed: name) }  // one: no sorting
        case .add(.names(let names), let subscriber):
            for name in names.sorted() { add(subscriber, toEventNamed: name) }
        case .remove(let shouldRemove):
            for slot in builtinSubscribers.indices { builtinSubscribers[slot].removeAll(where: shouldRemove) }
            for name in customSubscribers.keys { customSubscribers[name]?.removeAll(where: shouldRemove) }
            wildcardSubscribers.removeAll(where: shouldRemove)
        case .removeAll:
            for slot in builtinSubscribers.indices where !builtinSubscribers[slot].isEmpty { builtinSubscribers[slot] = [] }
            customSubscribers = [:]
            wildcardSubscribers = []
        }
    }

    private func add(_ subscriber: Subscriber, toEventNamed name: String) {
        if let slot = Event.builtinSlots[name] {
            builtinSubscribers[slot].append(subscriber)
        } else {
            add(subscriber, toCustomEventNamed: name)
        }
    }

    private func add(_ subscriber: Subscriber, toCustomEventNamed name: String) {
        // Room for a simulation's plugin events, made at the first, not grown name by name.
        if customSubscribers.isEmpty { customSubscribers.reserveCapacity(8) }
        customSubscribers[name, default: []].append(subscriber)
    }
}
