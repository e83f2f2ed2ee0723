/// Text from a scenario file on its way to a terminal: control characters (C0, DEL, C1) are
/// written as `\u{1B}`, so a file cannot move the cursor, clear the screen or hide what follows.
public enum TerminalText {
    /// `text` with every control character but none of the others escaped.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
