import Testing

@testable import RehearseView

/// Host names are checked exactly: loopback is `localhost` and literal loopback addresses, nothing
/// by prefix or in another spelling.
@Suite struct ViewerHostNameTests {
    @Test func loopbackIsLocalhostAndLiteralLoopbackAddressesOnly() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "[::1]"] {
            #expect(ViewerHostName.isLoopback(host), "\(host)")
        }
        for host in [
            "127.evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "evil.localhost", "localhost.",
            "127.0.0.1.", "LOCALHOST", "0x7f.1", "0x7f000001", "2130706433", "127.1", "0177.0.0.1", "127.0.0.01",
            "127.0.0.256", "127.0.0.-1", "127.0.0.1 ", " 127.0.0.1", "[::1", "::1]", "[0::1]", "128.0.0.1", "",
            "\u{0661}27.0.0.1",
        ] {
            #expect(!ViewerHostName.isLoopback(host), "\(host)")
        }
        #expect(ViewerAddress("127.evil.example:80")?.isLoopback == false)
        #expect(ViewerAddress("127.0.0.1:80")?.isLoopback == true)
    }

    @Test func theHostOfAHostHeader() {
        let cases: [(String, String?)] = [
            ("127.0.0.1:8080", "127.0.0.1"), ("localhost", "localhost"), ("[::1]:80", "[::1]"), ("[::1]", "[::1]"),
            ("127.evil.example:80", "127.evil.example"), ("a:b:c", nil), ("host:99999", nil), ("host:", nil), (":80", nil),
            ("[::1]x", nil), ("[::1]:", nil), ("", nil),
        ]
        for (authority, host) in cases { #expect(ViewerHostName.name(ofAuthority: authority) == host, "\(authority)") }
    }

    /// On loopback the viewer answers to loopback names only; bound to another address, also to
    /// literal addresses and the name it was told to listen at, never to another name.
    @Test func theServerAnswersOnlyToItsOwnNames() throws {
        let loopback = HostPolicy(listeningAt: try #require(ViewerAddress("127.0.0.1:8080")))
        #expect(!loopback.allows("127.0.0.1:8080"), "nothing before the server is bound")
        loopback.bound(to: "127.0.0.1")
        for allowed in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "127.0.0.2"] {
            #expect(loopback.allows(allowed), "\(allowed)")
        }
        for refused in [
            "127.evil.example:8080", "localhost.evil.example:8080", "rebound.example:8080", "10.0.0.1:8080", "localhost.:8080",
        ] {
            #expect(!loopback.allows(refused), "\(refused)")
        }
        let open = HostPolicy(listeningAt: try #require(ViewerAddress("Studio.local:8080")))
        open.bound(to: "0.0.0.0")
        for allowed in ["10.0.0.1:8080", "studio.local:8080", "[fe80::1]:8080", "localhost:8080"] {
            #expect(open.allows(allowed), "\(allowed)")
        }
        for refused in ["evil.example:8080", "studio.local.evil.example:8080", "127.evil.example:8080"] {
            #expect(!open.allows(refused), "\(refused)")
        }
    }
}
