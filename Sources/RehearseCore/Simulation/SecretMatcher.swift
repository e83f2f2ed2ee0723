/// Finds whether a text contains any of a set of secrets, in time linear in the text: each secret's
/// UTF-8 bytes with their Knuth–Morris–Pratt table, built once per set. `String.contains` compares
/// characters from every start and costs the text's length times the secret's, which a plugin that
/// writes long texts beside a long secret turned into seconds of every call (the attack's F1).
/// Bytes match where characters might not (an `e` inside a decomposed `é`), so a match here
/// redacts at least what a character match would.
struct SecretMatcher {
    private struct Pattern {
        let bytes: [UInt8]
        /// `fallback[i]`: the length of the longest proper prefix of `bytes[0...i]` that is also its suffix.
        let fallback: [Int]

        init(_ secret: String) {
            bytes = Array(secret.utf8)
            var fallback = [Int](repeating: 0, count: bytes.count)
            var length = 0
            for index in bytes.indices.dropFirst() {
                while length > 0, bytes[index] != bytes[length] { length = fallback[length - 1] }
                if bytes[index] == bytes[length] { length += 1 }
                fallback[index] = length
            }
            self.fallback = fallback
        }

        func occurs(in text: String) -> Bool {
            var matched = 0
            for byte in text.utf8 {
                while matched > 0, byte != bytes[matched] { matched = fallback[matched - 1] }
                if byte == bytes[matched] { matched += 1 }
                if matched == bytes.count { return true }
            }
            return false
        }
    }

    private let patterns: [Pattern]

    /// A matcher for `secrets`; empty secrets are left out (they would match everything).
    init(_ secrets: [String]) {
        patterns = secrets.filter { !$0.isEmpty }.map(Pattern.init)
    }

    /// Whether there is nothing to find.
    var isEmpty: Bool { patterns.isEmpty }

    /// Whether `text` contains one of the secrets.
    func matches(_ text: String) -> Bool {
        patterns.contains { text.utf8.count >= $0.bytes.count && $0.occurs(in: text) }
    }
}
