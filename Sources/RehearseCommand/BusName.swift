import ArgumentParser
import RehearseScenario

/// The D-Bus specification's rules for a well-known bus name ("Valid Bus Names"): two or more
/// elements separated by `.`, each of one or more of `[A-Za-z0-9_-]` and not starting with a
/// digit, at most 255 bytes in all.
enum BusName {
    /// The longest bus name, in bytes.
    static let maximumLength = 255

    /// Refuses `name` as a usage error unless it is a well-known bus name.
    static func check(_ name: String) throws {
        if let problem = problem(with: name) {
            throw ValidationError("'\(TerminalText.escape(name))' is not a well-known bus name: \(problem)")
        }
    }

    /// Why `name` is not a well-known bus name, or nil when it is one.
    static func problem(with name: String) -> String? {
        guard name.utf8.count <= maximumLength else {
            return "it is \(name.utf8.count) bytes; a bus name has at most \(maximumLength)"
        }
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return "a bus name has two or more elements separated by '.'" }
        for element in elements {
            guard let first = element.first else { return "an element is empty (no '.' at either end, no '..')" }
            guard element.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                return "an element holds only letters, digits, '_' and '-'"
            }
            guard !first.isNumber else { return "an element does not start with a digit ('\(element)')" }
        }
        return nil
    }
}
