/// A constraint that cannot be read: the text, where in it, and what was expected there.
public struct LayoutSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The format string or single constraint.
    public var source: String
    /// The 0-based character offset of the problem in `source`.
    public var offset: Int
    public var message: String

    public init(_ message: String, in source: String, at offset: Int) {
        self.source = source
        self.offset = offset
        self.message = message
    }

    /// `message at offset N of 'source'`, followed by the source with a caret under the place.
    public var description: String {
        "\(message) at character \(offset + 1) of '\(source)'"
    }
}
