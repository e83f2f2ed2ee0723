import RehearseCore

/// Values written into scenario files in YAML's flow style (`{on: list, by: [0, -100]}`), which
/// the loader reads back to the same values: numbers as Swift prints them (shortest, exact; a
/// double keeps its `.0`), strings plain when nothing could read them otherwise, quoted when
/// something could.
enum YAMLFlow {
    /// `value` in flow style; with `quoted`, every string and key JSON-quoted, as recordings have them.
    static func value(_ value: FieldValue, quoted: Bool = false) -> String {
        switch value {
        case .dictionary(let fields):
            "{"
                + fields.keys.sorted().map {
                    "\(string($0, quoted: quoted)): \(self.value(fields[$0] ?? .string(""), quoted: quoted))"
                }
                .joined(separator: ", ") + "}"
        case .array(let items):
            "[" + items.map { self.value($0, quoted: quoted) }.joined(separator: ", ") + "]"
        case .string(let text):
            string(text, quoted: quoted)
        case .bool, .int, .double:
            value.jsonText
        }
    }

    /// `text` plain (`list`, `login.submit`) when it is a word YAML reads as a string in every
    /// version and editor (letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and
    /// not a boolean or null of YAML 1.1 or 1.2), ``quoted(_:)`` otherwise (`"correct horse"`, `"on"`).
    static func string(_ text: String, quoted: Bool = false) -> String {
        guard !quoted, let first = text.unicodeScalars.first, first == "_" || Self.letters.contains(first),
            text.unicodeScalars.allSatisfy({
                Self.letters.contains($0) || Self.digits.contains($0) || "_-.".unicodeScalars.contains($0)
            }),
            !Self.reserved.contains(text.lowercased())
        else { return Self.quoted(text) }
        return text
    }

    /// `text` double-quoted as JSON escapes it, and with the characters YAML does not let a file
    /// hold as they are (DEL, C1 controls, U+2028, U+2029, a byte-order mark, U+FFFE, U+FFFF)
    /// escaped too: the loader refuses a file holding them.
    static func quoted(_ text: String) -> String {
        var output = ""
        for scalar in FieldValue.string(text).jsonText.unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `[x, y]`, each as people write it (`[0, -100]`).
    static func point(_ point: Point) -> String {
        "[\(point.x.shortDescription), \(point.y.shortDescription)]"
    }

    private static let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
    private static let digits = Set("0123456789".unicodeScalars)
    /// Words some YAML reads as a boolean or null.
    private static let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n"]
}
