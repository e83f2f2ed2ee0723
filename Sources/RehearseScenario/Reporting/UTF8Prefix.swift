extension StringProtocol {
    /// The longest prefix of whole characters that holds at most `limit` bytes of UTF-8: a name or
    /// a line cut to a size a file system or a page allows, never in the middle of a character.
    func prefix(utf8Bytes limit: Int) -> SubSequence {
        var bytes = 0
        var end = startIndex
        for index in indices {
            bytes += self[index].utf8.count
            guard bytes <= limit else { break }
            end = self.index(after: index)
        }
        return self[..<end]
    }
}
