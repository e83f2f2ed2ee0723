/// Where the viewer's HTTP server listens: `HOST:PORT`, with an IPv6 host in brackets
/// (`[::1]:8080`); port 0 takes any free port.
public struct ViewerAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Loopback, port 8080: other machines cannot reach the viewer unless asked for.
    public static let loopback = ViewerAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT`; nil when it is not one.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port)
        else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0 != "/" }) else {
            return nil
        }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can connect: `localhost` or a literal loopback address
    /// (`127.X.Y.Z`, `::1`), exactly; a name such as `127.evil.example` is not one.
    public var isLoopback: Bool {
        ViewerHostName.isLoopback(host)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
