import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's connection set-up with a ``ViewerConnectionHandler`` in front of everything, so
/// that every connection is counted and timed from its first byte (Hummingbird times only
/// connections that sent a whole request, which is how idle ones stayed open).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let connections: ViewerConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ViewerConnectionHandler(connections: connections), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
