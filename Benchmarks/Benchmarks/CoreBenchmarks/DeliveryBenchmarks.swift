import Benchmark
import Foundation
import OpenCombine
import RehearseCore

/// The event every contender delivers: a tap, the most common injected event.
private let tap = Event.tap(Tap(point: Point(x: 10, y: 20), target: "title", isControl: false))

/// Delivering one event to `subscribers` handlers that each add to a counter, 1,000 times per
/// scaled iteration: the Rehearse bus against NotificationCenter, OpenCombine's
/// PassthroughSubject and a plain array of closures.
func registerDeliveryBenchmarks(subscribers: Int) {
    Benchmark("Delivery/\(subscribers) subscribers/EventBus") { benchmark in
        let bus = EventBus()
        var received = 0
        for index in 0..<subscribers {
            bus.subscribe(.name("tap"), owner: "s\(index)") { _ in received &+= 1 }
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bus.publish(tap, source: "benchmark") }
        benchmark.stopMeasurement()
        blackHole(received)
    }

    Benchmark("Delivery/\(subscribers) subscribers/ClosureArray") { benchmark in
        var received = 0
        var handlers: [(DeliveredEvent) throws -> Void] = []
        for _ in 0..<subscribers { handlers.append { _ in received &+= 1 } }
        var sequence: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sequence &+= 1
            let delivered = DeliveredEvent(sequence: sequence, time: .zero, event: tap, source: "benchmark")
            for handler in handlers { try? handler(delivered) }
        }
        benchmark.stopMeasurement()
        blackHole(received)
    }

    Benchmark("Delivery/\(subscribers) subscribers/PassthroughSubject") { benchmark in
        let subject = PassthroughSubject<Event, Never>()
        var received = 0
        var cancellables: [AnyCancellable] = []
        for _ in 0..<subscribers { cancellables.append(subject.sink { _ in received &+= 1 }) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(tap) }
        benchmark.stopMeasurement()
        blackHole(received)
        blackHole(cancellables)
    }

    Benchmark("Delivery/\(subscribers) subscribers/NotificationCenter") { benchmark in
        let center = NotificationCenter()
        let name = Notification.Name("tap")
        let counter = Counter()
        var observers: [any NSObjectProtocol] = []
        for _ in 0..<subscribers {
            observers.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 })
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { center.post(name: name, object: nil, userInfo: ["event": tap]) }
        benchmark.stopMeasurement()
        blackHole(counter.value)
        observers.forEach(center.removeObserver)
    }
}

/// A counter NotificationCenter's `@Sendable` observer blocks can touch; the benchmark posts from
/// one thread, so the unchecked conformance holds.
private final class Counter: @unchecked Sendable {
    var value = 0
}
