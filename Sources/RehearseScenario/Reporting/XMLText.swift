/// Text inside XML (JUnit reports, SVG pictures, the HTML report).
public enum XMLText {
    /// Escapes text for XML attributes and content, replacing the characters XML 1.0 cannot hold
    /// (controls other than tab, line feed and carriage return, U+FFFE and U+FFFF) with U+FFFD.
    /// Works on the UTF-8 bytes: the report escapes every event of every scenario.
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            var escaped: [UInt8] = []
            escaped.reserveCapacity(utf8.count + utf8.count / 8)
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                index += 1
                switch byte {
                case UInt8(ascii: "&"): escaped += ampersand
                case UInt8(ascii: "<"): escaped += lessThan
                case UInt8(ascii: ">"): escaped += greaterThan
                case UInt8(ascii: "\""): escaped += quote
                case UInt8(ascii: "'"): escaped += apostrophe
                case 0x09, 0x0A, 0x0D: escaped.append(byte)
                case 0..<0x20: escaped += replacement
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                case 0xEF where index + 1 < utf8.count && utf8[index] == 0xBF && (utf8[index + 1] == 0xBE || utf8[index + 1] == 0xBF):
                    escaped += replacement
                    index += 2
                default: escaped.append(byte)
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        }
    }

    /// U+FFFD in UTF-8.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    private static let ampersand = Array("&amp;".utf8), lessThan = Array("&lt;".utf8), greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8), apostrophe = Array("&apos;".utf8)
}
