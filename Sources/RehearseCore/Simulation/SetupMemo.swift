/// What a set-up built that the next build of the same set-up starts from instead of building it
/// again. An exploration's worker keeps one and gives it to every simulation it sets up
/// (``Simulation/setupMemo``): a scenario's set-up is deterministic, so each build sees what the
/// first saw, and a plugin that keeps what its set-up costs (the login animator's solved layout)
/// under its id takes a copy the next time, the same to the last bit. A plugin that keeps nothing
/// (a command plugin, whose program starts afresh) is set up afresh every time. One thread uses a
/// memo at a time: a worker's own.
public final class SetupMemo {
    private var kept: [String: Any] = [:]

    public init() {}

    /// What was kept under `key` (a plugin's id), if it is a `Value`.
    public func kept<Value>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        kept[key] as? Value
    }

    /// Keeps `value` under `key` for the next build.
    public func keep(_ value: some Any, as key: String) {
        kept[key] = value
    }
}
