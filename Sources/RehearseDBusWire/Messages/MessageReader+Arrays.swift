extension MessageReader {
    /// An array of structs (`a(...)`), each read by `read` from a reader of its members, which must
    /// all be read; more than `limit` items is refused, naming `what`.
    package mutating func structs<Item>(
        limit: Int, what: String,
        _ read: (inout MessageReader) throws(Problem) -> Item
    ) throws(Problem) -> [Item] {
        var items = try array(of: DBusType.struct, "an array of structs (\(what))")
        var result: [Item] = []
        while items.currentType == DBusType.struct {
            guard result.count < limit else { throw .limit("more than \(limit) \(what) (the limit)") }
            var members = items.container()
            result.append(try read(&members))
            try members.finish()
        }
        return result
    }

    /// `as`, each string up to `maximumBytes`; more than `limit` strings is refused.
    package mutating func strings(limit: Int, maximumBytes: Int) throws(Problem) -> [String] {
        var items = try array(of: DBusType.string, "an array of strings")
        var strings: [String] = []
        while items.currentType == DBusType.string {
            guard strings.count < limit else { throw .limit("more than \(limit) strings (the limit)") }
            strings.append(try items.string(maximumBytes: maximumBytes))
        }
        return strings
    }
}
