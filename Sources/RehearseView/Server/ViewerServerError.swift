/// Why the viewer could not start, in plain words with what to do.
public enum ViewerServerError: Error, CustomStringConvertible {
    /// Another program listens at the address's port.
    case portTaken(ViewerAddress)

    public var description: String {
        switch self {
        case .portTaken(let address):
            "port \(address.port) is taken by another program (another viewer?): give another port, or "
                + "--http \(address.host.contains(":") ? "[\(address.host)]" : address.host):0 for a free one"
        }
    }
}
