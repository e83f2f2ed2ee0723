/// Where each accessible object is on the bus: the application at AT-SPI's root path, each node
/// at `/org/a11y/atspi/accessible/node/` and its id in path characters (letters and digits as they
/// are, every other byte of its UTF-8 as `_` and two hex digits), so that every id has one path
/// and every path one id.
package enum AccessiblePaths {
    /// The application's root object, where the registry and clients look first.
    package static let root = "/org/a11y/atspi/accessible/root"
    /// Where libatspi asks for the cache (`org.a11y.atspi.Cache.GetItems`).
    package static let cache = "/org/a11y/atspi/cache"
    /// The path of "no object" in references.
    package static let null = "/org/a11y/atspi/null"
    /// The folder of the nodes' paths.
    package static let nodePrefix = "/org/a11y/atspi/accessible/node/"

    /// The path of node `id`.
    package static func path(of id: String) -> String {
        var element = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                element.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                element += "_" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
            }
        }
        return nodePrefix + element
    }

    /// The most bytes the path of node `id` can have: three for each byte of its id (`_` and two
    /// hex digits) after the folder's.
    package static func longestPath(ofID id: String) -> Int { nodePrefix.utf8.count + 3 * id.utf8.count }

    /// The node id at `path`, or nil when `path` is no node's.
    package static func id(at path: String) -> String? {
        guard path.hasPrefix(nodePrefix) else { return nil }
        var bytes: [UInt8] = []
        var rest = Substring(path.dropFirst(nodePrefix.count)).utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "_") {
                guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else {
                    return nil
                }
                rest = rest.dropFirst(2)
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.isEmpty, let id = String(validating: bytes, as: UTF8.self), Self.path(of: id) == path else { return nil }
        return id
    }
}
