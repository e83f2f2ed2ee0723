import HTTPTypes
import Hummingbird
import Synchronization

/// The `Host` names the viewer answers to, so that a site whose name was made to point at this
/// machine (DNS rebinding) can neither read the page nor open its WebSocket. A viewer bound to
/// loopback answers only to `localhost` and literal loopback addresses; one bound to another
/// address also to literal addresses and the name it was given to listen at. A name an attacker
/// controls is never one of them.
final class HostPolicy: Sendable {
    /// Set once the server is bound: whether it listens on loopback only.
    private let boundToLoopback = Mutex<Bool?>(nil)
    /// The name given to listen at, as a `Host` header writes it (IPv6 in brackets).
    private let listenName: String

    init(listeningAt address: ViewerAddress) {
        listenName = address.host.contains(":") ? "[\(address.host)]" : address.host.lowercased()
    }

    /// Called once the server listens at `address` (its bound socket address, as text).
    func bound(to address: String) {
        boundToLoopback.withLock { $0 = ViewerHostName.isLoopback(address) }
    }

    /// The `Host` header: one left among a request's headers means it had another before it.
    static let host = HTTPField.Name("Host")!

    /// Whether `authority` (a `Host` header) names this viewer.
    func allows(_ authority: String) -> Bool {
        guard let name = ViewerHostName.name(ofAuthority: authority), let loopback = boundToLoopback.withLock({ $0 }) else {
            return false
        }
        if ViewerHostName.isLoopback(name) { return true }
        return !loopback && (ViewerHostName.isLiteralAddress(name) || name == listenName)
    }
}

/// Refuses (403) every request whose `Host` the ``HostPolicy`` does not allow, and (400, RFC 9112
/// section 3.2) one with more than one `Host`: the first becomes the request's authority and the
/// others stay among its headers, so only the first was checked.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let policy: HostPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.headers[HostPolicy.host] == nil else { return Self.refusal(.badRequest, "a request names one Host\n") }
        guard let authority = request.head.authority, policy.allows(authority) else {
            return Self.refusal(.forbidden, "this viewer answers only to its own address\n")
        }
        return try await next(request, context)
    }

    private static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
