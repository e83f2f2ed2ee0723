/// Reads a constraint's text character by character, knowing where it is for errors.
struct TextCursor {
    let source: String
    private let characters: [Character]
    private(set) var offset = 0

    init(_ source: String) {
        self.source = source
        characters = Array(source)
    }

    var isAtEnd: Bool { offset >= characters.count }
    var current: Character? { isAtEnd ? nil : characters[offset] }

    func peek(_ ahead: Int = 0) -> Character? {
        offset + ahead < characters.count ? characters[offset + ahead] : nil
    }

    mutating func skipSpaces() {
        while current == " " { offset += 1 }
    }

    /// Consumes `text` if it comes next.
    mutating func take(_ text: String) -> Bool {
        let wanted = Array(text)
        guard offset + wanted.count <= characters.count, Array(characters[offset..<offset + wanted.count]) == wanted else {
            return false
        }
        offset += wanted.count
        return true
    }

    mutating func expect(_ text: String, _ what: String) throws(LayoutSyntaxError) {
        guard take(text) else { throw error("expected \(what)") }
    }

    /// An identifier: a letter or `_`, then letters, digits or `_`.
    mutating func identifier() -> String? {
        guard let first = current, first.isLetter || first == "_" else { return nil }
        var name = ""
        while let character = current, character.isLetter || character.isNumber || character == "_" {
            name.append(character)
            offset += 1
        }
        return name
    }

    /// A decimal number such as `8`, `0.5` or `-3`.
    mutating func number() -> Double? {
        let start = offset
        var text = ""
        if current == "-" || current == "+" {
            text.append(current ?? "+")
            offset += 1
        }
        while let character = current, character.isNumber || character == "." {
            text.append(character)
            offset += 1
        }
        guard let value = Double(text), value.isFinite else {
            offset = start
            return nil
        }
        return value
    }

    /// A number or the value of a metric.
    mutating func constant(_ metrics: [String: Double]) throws(LayoutSyntaxError) -> Double {
        if let number = number() { return number }
        let start = offset
        guard let name = identifier() else { throw error("expected a number or a metric name") }
        guard let value = metrics[name] else { throw LayoutSyntaxError("unknown metric '\(name)'", in: source, at: start) }
        return value
    }

    /// A priority after `@`: a number or metric from 1 to 1000.
    mutating func priority(_ metrics: [String: Double]) throws(LayoutSyntaxError) -> Double {
        let start = offset
        let value = try constant(metrics)
        guard (1...1000).contains(value) else {
            throw LayoutSyntaxError("a priority is from 1 to 1000, found \(value)", in: source, at: start)
        }
        return value
    }

    func error(_ message: String) -> LayoutSyntaxError {
        let found = current.map { "'\($0)'" } ?? "the end"
        return LayoutSyntaxError("\(message), found \(found)", in: source, at: offset)
    }
}
