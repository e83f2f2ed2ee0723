import Testing

@testable import RehearseCore

private struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

@Suite struct EventBusTests {
    @Test func subscribersGetTheNamesTheyAskedFor() {
        let bus = EventBus()
        var one: [String] = []
        var several: [String] = []
        var all: [String] = []
        bus.subscribe(.name("tap"), owner: "one") { one.append($0.event.name) }
        bus.subscribe(.names(["tap", "login.submit"]), owner: "several") { several.append($0.event.name) }
        bus.subscribe(.all, owner: "all") { all.append($0.event.name) }
        bus.publish(.tap(Tap(target: "a")), source: "test")
        bus.publish(.network(NetworkChange(online: false)), source: "test")
        bus.publish(.custom(name: "login.submit", fields: [:]), source: "test")
        #expect(one == ["tap"])
        #expect(several == ["tap", "login.submit"])
        #expect(all == ["tap", "network", "login.submit"])
    }

    @Test func unsubscribedHandlersHearNothingMore() throws {
        let bus = EventBus()
        var count = 0
        let token = try #require(bus.subscribe(.name("network"), owner: "p") { _ in count += 1 })
        bus.publish(.network(NetworkChange(online: true)), source: "test")
        bus.unsubscribe(token)
        bus.publish(.network(NetworkChange(online: true)), source: "test")
        #expect(count == 1)
        #expect(bus.subscriberCount(for: "network") == 0)
    }

    @Test func eventsEmittedDuringDeliveryWaitTheirTurn() {
        let bus = EventBus()
        var log: [String] = []
        bus.subscribe(.name("a"), owner: "first") { _ in
            log.append("first got a")
            bus.publish(.custom(name: "b", fields: [:]), source: "first")
            log.append("first done with a")
        }
        bus.subscribe(.names(["a", "b"]), owner: "second") { log.append("second got \($0.event.name)") }
        let sequence = bus.publish(.custom(name: "a", fields: [:]), source: "test")
        #expect(sequence == 1)
        #expect(log == ["first got a", "first done with a", "second got a", "second got b"])
        #expect(bus.lastSequence == 2)
    }

    /// Delivery reads the subscriber lists in place, so changes made by handlers wait until the
    /// event has been delivered: a new subscription hears the events after it (the queued ones
    /// included), one ended mid-event still hears the rest of that event.
    @Test func subscriptionsChangedDuringDeliveryTakeEffectAfterTheEvent() throws {
        let bus = EventBus()
        var log: [String] = []
        var lateToken: SubscriptionToken?
        bus.subscribe(.name("a"), owner: "starter") { _ in
            lateToken = bus.subscribe(.names(["a", "b"]), owner: "late") { log.append("late got \($0.event.name)") }
            bus.publish(.custom(name: "b", fields: [:]), source: "starter")
        }
        let leaverToken = try #require(bus.subscribe(.name("c"), owner: "ender") { _ in log.append("ender got c") })
        bus.subscribe(.name("c"), owner: "stopper") { _ in bus.unsubscribe(leaverToken) }
        bus.subscribe(.name("c"), owner: "third") { _ in log.append("third got c") }
        bus.publish(.custom(name: "a", fields: [:]), source: "test")
        #expect(log == ["late got b"])
        #expect(bus.subscriberCount(for: "a") == 2)
        bus.publish(.custom(name: "c", fields: [:]), source: "test")
        bus.publish(.custom(name: "c", fields: [:]), source: "test")
        #expect(log == ["late got b", "ender got c", "third got c", "third got c"])
        bus.unsubscribe(try #require(lateToken))
        #expect(bus.subscriberCount(for: "b") == 0)
    }

    @Test func sequenceNumbersAndTimesAreStamped() {
        let bus = EventBus()
        var delivered: [DeliveredEvent] = []
        bus.subscribe(.all, owner: "recorder") { delivered.append($0) }
        bus.publish(.custom(name: "x", fields: [:]), source: "test")
        bus.now = VirtualTime(nanoseconds: 5)
        bus.publish(.custom(name: "y", fields: [:]), source: "test")
        #expect(delivered.map(\.sequence) == [1, 2])
        #expect(delivered.map(\.time.nanoseconds) == [0, 5])
        #expect(delivered.map(\.source) == ["test", "test"])
    }

    @Test func aThrowingPluginIsIsolatedAndTheOthersGoOn() {
        let bus = EventBus()
        var healthy: [String] = []
        var faultyCalls = 0
        bus.subscribe(.name("tap"), owner: "faulty") { _ in
            faultyCalls += 1
            throw Boom()
        }
        bus.subscribe(.name("network"), owner: "faulty") { _ in faultyCalls += 1 }
        bus.subscribe(.all, owner: "healthy") { healthy.append($0.event.name) }
        bus.publish(.tap(Tap(target: "a")), source: "test")
        bus.publish(.tap(Tap(target: "a")), source: "test")
        bus.publish(.network(NetworkChange(online: true)), source: "test")
        #expect(faultyCalls == 1)
        #expect(healthy == ["tap", "plugin.failed", "tap", "network"])
        #expect(bus.isIsolated("faulty"))
        #expect(bus.subscribe(.all, owner: "faulty") { _ in } == nil)
    }
}
