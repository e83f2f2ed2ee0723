import RehearseCore

/// Text from a scenario file on its way to a terminal: control characters (C0, DEL, C1) are
/// written as `\u{1B}`, so a file cannot move the cursor, clear the screen or hide what follows.
public enum TerminalText {
    /// `text` with every control character escaped (`\u{1B}`), and every character that changes
    /// how the text around it reads without showing itself: zero-width characters, direction
    /// overrides and isolates (U+202E turns what follows around), line and paragraph separators.
    /// With `keepingLineBreaks`, `\n` stays (a usage text's lines).
    public static func escape(_ text: String, keepingLineBreaks: Bool = false) -> String {
        func hidden(_ scalar: Unicode.Scalar) -> Bool { isHidden(scalar) && !(keepingLineBreaks && scalar == "\n") }
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if hidden(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isControlCharacter { return true }
        return switch scalar.value {
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: true  // zero-width, separators, direction
        default: false
        }
    }
}
