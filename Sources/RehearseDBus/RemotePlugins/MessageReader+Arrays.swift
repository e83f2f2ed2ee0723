import CDBus

extension MessageReader {
    /// An array of structs (`a(...)`), each read by `read` from a reader of its members, which must
    /// all be read; more than `limit` items is refused, naming `what`.
    mutating func structs<Item>(limit: Int, what: String,
                                _ read: (inout MessageReader) throws(Problem) -> Item) throws(Problem) -> [Item] {
        guard currentType == DBusType.array, dbus_message_iter_get_element_type(&iter) == DBusType.struct else {
            throw .signature("expected an array of structs (\(what))")
        }
        var array = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &array)
        advance()
        var items = MessageReader(iter: array)
        var result: [Item] = []
        while items.currentType == DBusType.struct {
            guard result.count < limit else { throw .value("more than \(limit) \(what) (the limit)") }
            var member = DBusMessageIter()
            dbus_message_iter_recurse(&items.iter, &member)
            items.advance()
            var members = MessageReader(iter: member)
            result.append(try read(&members))
            try members.finish()
        }
        return result
    }

    /// `as`, each string up to `maximumBytes`; more than `limit` strings is refused.
    mutating func strings(limit: Int, maximumBytes: Int) throws(Problem) -> [String] {
        guard currentType == DBusType.array, dbus_message_iter_get_element_type(&iter) == DBusType.string else {
            throw .signature("expected an array of strings")
        }
        var array = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &array)
        advance()
        var items = MessageReader(iter: array)
        var strings: [String] = []
        while items.currentType == DBusType.string {
            guard strings.count < limit else { throw .value("more than \(limit) strings (the limit)") }
            strings.append(try items.string(maximumBytes: maximumBytes))
        }
        return strings
    }
}
