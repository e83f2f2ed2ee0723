/// What one page is sent, in order: its hello, then frames and errors. The hello waits apart from
/// the rest, so that a page slow to read, which loses its oldest frames, never loses its hello.
struct PageMessages: AsyncSequence, Sendable {
    typealias Element = String

    let hello: AsyncStream<String>
    let rest: AsyncStream<String>

    struct AsyncIterator: AsyncIteratorProtocol {
        var hello: AsyncStream<String>.AsyncIterator?
        var rest: AsyncStream<String>.AsyncIterator

        mutating func next() async -> String? {
            if var greeting = hello {
                hello = nil
                return await greeting.next()  // none: the page left before it was greeted
            }
            return await rest.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(hello: hello.makeAsyncIterator(), rest: rest.makeAsyncIterator())
    }
}
