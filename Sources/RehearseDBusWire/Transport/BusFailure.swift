/// A problem with the bus itself: connecting, the name, the connection going away.
public struct BusFailure: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
