/// Host names as the viewer checks them, exactly: no prefix, no suffix, no other spelling of a
/// number. A browser writes a host in one canonical form (lowercase, dotted-decimal IPv4, compressed
/// IPv6 in brackets), so anything else is not a page the viewer served.
enum ViewerHostName {
    /// Whether `host` is `localhost` or a literal loopback address: `127.X.Y.Z` in dotted decimal
    /// (each part 0 to 255, no leading zero), `::1` or `[::1]`. Not `127.evil.example`,
    /// `localhost.`, `0x7f.1` or `2130706433`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        return ipv4(host)?.first == 127
    }

    /// Whether `host` is a literal address (dotted-decimal IPv4, or IPv6 in brackets): a name a
    /// DNS-rebinding site could control is never one.
    static func isLiteralAddress(_ host: String) -> Bool {
        if ipv4(host) != nil { return true }
        guard host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 else { return false }
        return host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// The four parts of a dotted-decimal IPv4 address written canonically; nil for anything else.
    static func ipv4(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part == "0" || !part.hasPrefix("0"), let number = Int(part), number <= 255
            else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// The host of an HTTP `Host` header (`HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT`), as written;
    /// nil when it is not one of those forms.
    static func name(ofAuthority authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || isPort(rest.dropFirst()) && rest.hasPrefix(":") else { return nil }
            return String(authority[...close])
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.count == 1 || isPort(parts[1]) else { return nil }
        return String(parts[0])
    }

    private static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber } && Int(text).map { $0 <= 65_535 } == true
    }
}
