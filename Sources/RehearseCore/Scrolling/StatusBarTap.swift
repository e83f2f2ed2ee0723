/// `statusBar.tap`: a tap on the status bar, which scrolls the one scroll view on screen with
/// `scrollsToTop` to its top (``Simulation``). It has no fields: the status bar is one target.
public struct StatusBarTap: TabulatedPayload {
    public static let fieldTable = FieldTable(Self())

    public init() {}
}

extension EventKind where Payload == StatusBarTap {
    public static var statusBarTap: Self { Self(.statusBarTap) { if case .statusBarTap(let p) = $0 { p } else { nil } } }
}
