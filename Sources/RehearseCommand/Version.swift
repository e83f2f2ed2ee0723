extension RehearseCommand {
    /// This checkout's version, as `rehearse --version` prints it; `scripts/check-examples` tags
    /// the checkout with it and checks that `Examples/` asks for it.
    public static let version = "0.3.0"
}
