import RehearseSupport
import Testing

/// XML 1.0 (section 2.2): text may hold tab, line feed, carriage return and characters from U+0020
/// on, except U+FFFE and U+FFFF; the five markup characters are written as entities.
@Suite struct XMLTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        (#"<a href="x">Tom & Jerry's</a>"#, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;"),
        ("tab\tline\nreturn\r", "tab\tline\nreturn\r"),
        ("nul\u{0}bell\u{7}escape\u{1B}", "nul\u{FFFD}bell\u{FFFD}escape\u{FFFD}"),
        ("\u{FFFE}\u{FFFF}\u{FFFD}", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("é ✓ 🎹 \u{7F} \u{EFFF} \u{FFFC}", "é ✓ 🎹 \u{7F} \u{EFFF} \u{FFFC}"),
        ("", ""),
    ])
    func escapes(_ text: String, _ expected: String) {
        #expect(XMLText.escape(text) == expected)
    }
}
