/// A built-in event with its payload type, for typed subscriptions: `context.on(.tap) { tap in ... }`.
public struct EventKind<Payload: EventPayload>: Sendable {
    /// The built-in event.
    @usableFromInline let event: BuiltinEvent
    /// The payload of an event of this kind; `nil` for any other event.
    public let payload: @Sendable (Event) -> Payload?

    /// The event's dotted name.
    public var name: String { event.name }

    /// The kind of built-in `event`, whose payload `payload` reads (beside each payload type).
    init(_ event: BuiltinEvent, _ payload: @escaping @Sendable (Event) -> Payload?) {
        self.event = event
        self.payload = payload
    }
}

extension EventBus {
    /// Subscribes `owner`'s `handler` to every built-in event of `kind`, typed:
    /// `bus.subscribe(.tap, owner: "responder") { tap in ... }`. Throwing isolates `owner`.
    /// Inlinable, so that the subscriber's module specializes it for the payload: a delivery then
    /// looks no generic type up (`context.on(.tick)` relies on it).
    @inlinable @discardableResult
    public func subscribe<Payload>(
        _ kind: EventKind<Payload>, owner: String,
        handler: @escaping (Payload) throws -> Void
    ) -> SubscriptionToken? {
        subscribe(slotOf: kind.event, owner: owner) { delivered in
            if let payload = kind.payload(delivered.event) { try handler(payload) }
        }
    }
}
