/// Several companions served as one (`--http` and `--atspi` together), each in turn, in the order given.
public final class CompanionGroup: SessionCompanion {
    private let companions: [any SessionCompanion]

    public init(_ companions: [any SessionCompanion]) {
        self.companions = companions
    }

    /// The one companion, a group of several, or nil for none.
    public static func of(_ companions: [any SessionCompanion]) -> (any SessionCompanion)? {
        companions.count > 1 ? CompanionGroup(companions) : companions.first
    }

    public func start(waking wake: @escaping @Sendable () -> Void) {
        for companion in companions { companion.start(waking: wake) }
    }

    public func serve(_ session: SimulatorSession) {
        for companion in companions { companion.serve(session) }
    }

    public func waitMilliseconds(idle: Int32) -> Int32 {
        companions.reduce(idle) { min($0, $1.waitMilliseconds(idle: idle)) }
    }

    public var readDescriptors: [Int32] { companions.flatMap(\.readDescriptors) }
}
