import RehearseCore

extension LoginAnimator {
    /// The original's settings by default: 0.3 s on UIView's default curve, top 120 / space 100 with
    /// the keyboard hidden and 70 / 40 with it shown.
    public struct Configuration: Codable, Sendable, Equatable {
        public var title = "title"
        public var username = "username"
        public var separator = "separator"
        public var password = "password"
        public var hidden = Metrics(top: 120, space: 100)
        public var shown = Metrics(top: 70, space: 40)
        public var duration = 0.3
        public var curve = NamedCurve.easeInEaseOut
        /// `fixed`: the shown metrics; `keyboard`: move the form so the password field's bottom sits
        /// `gap` above the keyboard, whatever its height.
        public var displacement = Displacement.fixed
        public var gap = 20.0
        /// `original`: the same metrics in landscape; `adaptive`: fit the form above the landscape
        /// keyboard.
        public var landscape = Landscape.original
        /// After Go, slide the title over the fields and shimmer it until the login resolves.
        public var submitAnimation = false
        /// Animate with the keyboard's own duration and curve instead of `duration` and `curve`.
        public var followKeyboardAnimation = false

        public init() {}
    }

    /// The two metrics of the original's vertical format line.
    public struct Metrics: Codable, Sendable, Equatable {
        public var top: Double
        public var space: Double

        public init(top: Double, space: Double) {
            self.top = top
            self.space = space
        }

        /// The names the vertical format line gives them.
        static let names = ["top", "space"]

        /// By name, as the layout engine's moving metrics.
        var values: [String: Double] { ["top": top, "space": space] }
    }

    public enum Displacement: String, Codable, Sendable, CaseIterable { case fixed, keyboard }
    public enum Landscape: String, Codable, Sendable, CaseIterable { case original, adaptive }
}
