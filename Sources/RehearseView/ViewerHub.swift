import RehearseCore
import Synchronization

/// Where the pages (on the HTTP server's tasks) and the live viewer (on the service's thread) meet:
/// commands go one way, frames the other, under one lock.
final class ViewerHub: Sendable {
    /// The most pages connected at once; another is refused.
    static let maximumClients = 16
    /// The most commands that may wait for the service's thread; past it a page is told to slow down.
    static let maximumQueuedCommands = 256
    /// The most messages that wait for one page: frames are whole pictures, so a page that falls
    /// behind loses the oldest, never the newest.
    static let clientBacklog = 64

    private struct State {
        var commands: [(client: Int, command: ViewerCommand)] = []
        var clients: [Int: AsyncStream<String>.Continuation] = [:]
        var newClients: [Int] = []
        var connected = 0
        var wake: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Wakes the service's loop when commands or pages arrive.
    func setWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    private func wakeService() {
        state.withLock { $0.wake }?()
    }

    /// A new page's number and the messages for it; nil when ``maximumClients`` are connected.
    func connect() -> (client: Int, messages: AsyncStream<String>)? {
        let (messages, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.clientBacklog))
        let client: Int? = state.withLock { state in
            guard state.clients.count < Self.maximumClients else { return nil }
            state.connected += 1
            state.clients[state.connected] = continuation
            state.newClients.append(state.connected)
            return state.connected
        }
        guard let client else { return nil }
        wakeService()
        return (client, messages)
    }

    /// Forgets a page that left.
    func disconnect(_ client: Int) {
        state.withLock { $0.clients.removeValue(forKey: client) }?.finish()
    }

    /// Queues a page's command for the service's thread; false when too many wait.
    func submit(_ command: ViewerCommand, from client: Int) -> Bool {
        let queued = state.withLock { state in
            guard state.commands.count < Self.maximumQueuedCommands else { return false }
            state.commands.append((client, command))
            return true
        }
        if queued { wakeService() }
        return queued
    }

    /// The commands queued since the last call, in order, with the page each came from.
    func takeCommands() -> [(client: Int, command: ViewerCommand)] {
        state.withLock { state in
            defer { state.commands.removeAll(keepingCapacity: true) }
            return state.commands
        }
    }

    /// The pages that connected since the last call.
    func takeNewClients() -> [Int] {
        state.withLock { state in
            defer { state.newClients.removeAll() }
            return state.newClients
        }
    }

    /// Whether any page is connected.
    var hasClients: Bool { state.withLock { !$0.clients.isEmpty } }

    func send(_ message: String, to client: Int) {
        _ = state.withLock { $0.clients[client] }?.yield(message)
    }

    /// The message that tells a page why its command was not taken.
    static func errorMessage(_ reason: String) -> String {
        FieldValue.dictionary(["type": "error", "message": .string(reason)]).jsonText
    }

    func broadcast(_ message: String) {
        for continuation in state.withLock({ Array($0.clients.values) }) { continuation.yield(message) }
    }
}
