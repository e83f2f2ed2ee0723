import RehearseDBusInterface
import RehearseDBusWire

/// `org.a11y.atspi.Text` on text fields and labels: their text as clients may read it (a secure
/// field's masked, ``AccessibleTree/Item/text``), offsets in Unicode scalars as the events give
/// them. The caret is where typing puts text, at a field's end; nothing is selected.
extension AccessibilityExport {
    /// `CharacterCount`, and `CaretOffset`: a text field's end, -1 on a label (no caret).
    static func textProperties(of item: AccessibleTree.Item) -> [(String, AccessibleProperty)] {
        let count = Int32(clamping: (item.text ?? "").unicodeScalars.count)
        return [("CharacterCount", .int32(count)), ("CaretOffset", .int32(item.isEditable ? count : -1))]
    }

    func respondAsText(_ request: inout Request, on item: AccessibleTree.Item, into reply: inout MessageWriter)
        throws(MethodFailure)
    {
        let characters = Array((item.text ?? "").unicodeScalars)
        switch request.member {
        case "GetText":
            try request.expect("ii")
            let start = try request.int32()
            let end = try request.int32()
            // As toolkits read it: -1 (or past the end) for the end, a start past the end for nothing.
            let upper = end < 0 ? characters.count : min(Int(end), characters.count)
            let lower = min(max(Int(start), 0), upper)
            var text = String.UnicodeScalarView()
            text.append(contentsOf: characters[lower..<upper])
            reply.append(String(text))
        case "GetCharacterAtOffset":
            try request.expect("i")
            let offset = Int(try request.int32())
            reply.append(characters.indices.contains(offset) ? Int32(bitPattern: characters[offset].value) : 0)
        case "GetNSelections":
            try request.expect("")
            reply.append(Int32(0))
        case "SetCaretOffset":
            // The caret stays where typing puts text.
            try request.expect("i")
            _ = try request.int32()
            reply.append(false)
        default:
            throw request.unknown(Self.text)
        }
    }
}
