extension Gateway {
    public struct Configuration: Codable, Sendable, Equatable {
        /// How the children change: `none` (the original), `fade` or `flip`.
        public var transition = Transition.none
        public var transitionDuration = 0.3
        /// Who may log in, how long the answer takes, and whether it always fails.
        public var authenticator = Authenticator()
        /// The children to embed for each state.
        public var children = Children()
        /// Show the offline child while `network` says offline.
        public var connectivityGate = false
        /// Sections a `gateway.navigate` event can show, and whether each needs a login (a locked
        /// section shows the login child until the user has logged in).
        public var sections: [String: Bool] = [:]

        public init() {}
    }

    public enum Transition: String, Codable, Sendable, CaseIterable { case none, fade, flip }

    public struct Authenticator: Codable, Sendable, Equatable {
        /// Accepted usernames; an empty list accepts everyone.
        public var users: [String] = []
        /// Seconds before the answer.
        public var latency = 0.5
        /// Refuse every login.
        public var fail = false

        public init() {}
    }

    public struct Children: Codable, Sendable, Equatable {
        public var loggedOut = "login"
        public var loggedIn = "home"
        public var offline = "offline"

        public init() {}
    }
}
