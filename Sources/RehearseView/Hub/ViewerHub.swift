import RehearseCore
import Synchronization

/// Where the pages (on the HTTP server's tasks) and the live viewer (on the service's thread) meet:
/// commands go one way, frames the other, under one lock. A page is greeted (sent the hello) before
/// anything else reaches it, and its commands wait until it was.
final class ViewerHub: Sendable {
    /// The most pages connected at once; another is refused.
    static let maximumClients = 16
    /// The most commands that may wait for the service's thread; past it a page is told to slow down.
    static let maximumQueuedCommands = 256
    /// The most messages that wait for one page: frames are whole pictures, so a page that falls
    /// behind loses the oldest, never the newest.
    static let clientBacklog = 64

    private struct Client {
        var hello: AsyncStream<String>.Continuation
        var messages: AsyncStream<String>.Continuation
        var greeted = false

        func finish() {
            hello.finish()
            messages.finish()
        }
    }

    private struct State {
        var commands: [(client: Int, command: ViewerCommand)] = []
        var clients: [Int: Client] = [:]
        var connected = 0
        /// Pages that left since the service's thread last asked.
        var departed: [Int] = []
        var wake: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Wakes the service's loop when commands or pages arrive.
    func setWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Wakes the service's loop (something is ready for it).
    func wake() {
        state.withLock { $0.wake }?()
    }

    /// A new page's number and the messages for it; nil when ``maximumClients`` are connected.
    func connect() -> (client: Int, messages: PageMessages)? {
        let (hello, greeting) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let (messages, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.clientBacklog))
        let client: Int? = state.withLock { state in
            guard state.clients.count < Self.maximumClients else { return nil }
            state.connected += 1
            state.clients[state.connected] = Client(hello: greeting, messages: continuation)
            return state.connected
        }
        guard let client else { return nil }
        wake()
        return (client, PageMessages(hello: hello, rest: messages))
    }

    /// Forgets a page that left.
    func disconnect(_ client: Int) {
        let left = state.withLock { state in
            let left = state.clients.removeValue(forKey: client)
            if left != nil { state.departed.append(client) }
            return left
        }
        left?.finish()
        if left != nil { wake() }
    }

    /// The pages that left since the last call (their fingers are to be lifted).
    func takeDeparted() -> [Int] {
        state.withLock { state in
            defer { state.departed.removeAll() }
            return state.departed
        }
    }

    /// Queues a page's command for the service's thread; false when too many wait.
    func submit(_ command: ViewerCommand, from client: Int) -> Bool {
        let queued = state.withLock { state in
            guard state.commands.count < Self.maximumQueuedCommands else { return false }
            state.commands.append((client, command))
            return true
        }
        if queued { wake() }
        return queued
    }

    /// The commands of greeted pages queued since the last call, in order, with the page each came
    /// from (a page not greeted yet keeps its commands queued).
    func takeCommands() -> [(client: Int, command: ViewerCommand)] {
        state.withLock { state in
            let queued = state.commands
            state.commands.removeAll(keepingCapacity: true)
            var taken: [(client: Int, command: ViewerCommand)] = []
            for entry in queued {
                switch state.clients[entry.client]?.greeted {
                case true?: taken.append(entry)
                case false?: state.commands.append(entry)
                case nil: break  // the page left
                }
            }
            return taken
        }
    }

    /// Sends `hello` to every page not greeted yet, as its first message; whether there was one.
    /// The hello is made only when there is one.
    func greetNewcomers(with makeHello: () -> String) -> Bool {
        guard state.withLock({ $0.clients.values.contains { !$0.greeted } }) else { return false }
        let hello = makeHello()
        return state.withLock { state in
            var greeted = false
            for (id, client) in state.clients where !client.greeted {
                state.clients[id]?.greeted = true
                client.hello.yield(hello)
                client.hello.finish()
                greeted = true
            }
            return greeted
        }
    }

    /// Whether any page is connected.
    var hasClients: Bool { state.withLock { !$0.clients.isEmpty } }

    /// Sends `message` to a page (after its hello, which the page is always sent first).
    func send(_ message: String, to client: Int) {
        _ = state.withLock { $0.clients[client] }?.messages.yield(message)
    }

    /// The message that tells a page why its command was not taken.
    static func errorMessage(_ reason: String) -> String {
        FieldValue.dictionary(["type": "error", "message": .string(reason)]).jsonText
    }

    /// Sends `message` to every greeted page (one that connected since is greeted first, later).
    func broadcast(_ message: String) {
        state.withLock { state in
            for client in state.clients.values where client.greeted { client.messages.yield(message) }
        }
    }
}
