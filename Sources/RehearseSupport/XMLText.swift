/// Text inside XML (JUnit reports, SVG pictures, the HTML report).
public enum XMLText {
    /// Escapes text for XML attributes and content, replacing the characters XML 1.0 cannot hold
    /// (controls other than tab, line feed and carriage return, U+FFFE and U+FFFF) with U+FFFD.
    /// Works on the UTF-8 bytes, in two passes: the first measures the escaped text (and returns
    /// `text` itself when nothing needs escaping), the second writes it into a string of exactly
    /// that size. The report escapes every event of every scenario.
    public static func escape(_ text: String) -> String {
        var text = text
        let escaped = text.withUTF8 { utf8 -> String? in
            var length = 0
            var index = 0
            var changed = false
            while index < utf8.count {
                if let (entity, replaced) = replacement(at: index, in: utf8) {
                    length += entity.utf8CodeUnitCount
                    index += replaced
                    changed = true
                } else {
                    length += 1
                    index += 1
                }
            }
            guard changed else { return nil }
            return String(unsafeUninitializedCapacity: length) { output in
                var count = 0
                var index = 0
                while index < utf8.count {
                    if let (entity, replaced) = replacement(at: index, in: utf8) {
                        for offset in 0..<entity.utf8CodeUnitCount { output[count + offset] = entity.utf8Start[offset] }
                        count += entity.utf8CodeUnitCount
                        index += replaced
                    } else {
                        output[count] = utf8[index]
                        count += 1
                        index += 1
                    }
                }
                return count
            }
        }
        return escaped ?? text
    }

    /// What replaces the bytes of `utf8` at `index`, and how many bytes it replaces; nil for a byte
    /// that stays.
    @inline(__always)
    private static func replacement(at index: Int, in utf8: UnsafeBufferPointer<UInt8>) -> (StaticString, Int)? {
        switch utf8[index] {
        case UInt8(ascii: "&"): ("&amp;", 1)
        case UInt8(ascii: "<"): ("&lt;", 1)
        case UInt8(ascii: ">"): ("&gt;", 1)
        case UInt8(ascii: "\""): ("&quot;", 1)
        case UInt8(ascii: "'"): ("&apos;", 1)
        case 0x09, 0x0A, 0x0D: nil
        case 0..<0x20: ("\u{FFFD}", 1)
        // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
        case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && (utf8[index + 2] == 0xBE || utf8[index + 2] == 0xBF):
            ("\u{FFFD}", 3)
        default: nil
        }
    }
}
