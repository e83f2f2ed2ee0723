/// What an event name or a remote plugin's id may be: ASCII letters, digits, `.`, `-` and `_`,
/// starting with a letter.
package enum EventName {
    package static func isValid(_ name: String) -> Bool {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        guard let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_" }
    }
}
