/// The stand-in of a remote plugin in one simulation: it subscribes for it, calls it through its
/// channel for every event it subscribed to, and applies each answer through its context, exactly
/// as a Swift plugin's calls would be made.
final class RemotePlugin: PluginInstance {
    private let channel: any RemotePluginChannel
    private let context: PluginContext
    /// The state of the last answer.
    private(set) var state: Fields = [:]
    /// The instant of the last call, and how many calls were made at it.
    private var instant: VirtualTime = .zero
    private var callsAtInstant = 0

    init(subscriptions: [String], configuration: Fields, channel: any RemotePluginChannel, context: PluginContext) throws {
        self.channel = channel
        self.context = context
        for name in subscriptions {
            try context.on(named: name) { [unowned self] delivered in
                try countCall()
                try apply(channel.deliver(delivered))
            }
        }
        try apply(channel.install(configuration: configuration))
    }

    private func apply(_ answer: RemoteAnswer) throws {
        state = answer.state
        for (index, effect) in answer.effects.enumerated() {
            do {
                try apply(effect)
            } catch {
                throw RemotePluginError("effect \(index + 1) (\(effect.kind.rawValue)): \(error)")
            }
        }
    }

    private func apply(_ effect: RemoteEffect) throws {
        switch effect {
        case .emit(let name, let fields):
            try context.emit(named: name, fields: fields)
        case .set(let path, let value):
            try context.setValue(value, at: path)
        case .animate(let parameters, let changes, let completion):
            let done: ((Bool) throws -> Void)? = completion.map { tag in
                { [unowned self] finished in try apply(wake(tag, details: ["finished": .bool(finished)])) }
            }
            try context.animate(parameters, changes: {
                for (path, value) in changes.sorted(by: { $0.key < $1.key }) { try context.setValue(value, at: path) }
            }, completion: done)
        case .activate(let sets):
            guard let layout = context.layout else { throw RemotePluginError("the scene has no constraint layout") }
            try layout.activate(sets)
        case .schedule(let delay, let tag):
            guard context.pendingCount < ScenarioLimits.pendingEvents else {
                throw RemotePluginError("\(ScenarioLimits.pendingEvents) items already wait on the clock (ScenarioLimits.pendingEvents, the limit)")
            }
            context.schedule(after: delay) { [unowned self] in try apply(wake(tag, details: [:])) }
        }
    }

    private func wake(_ tag: String, details: Fields) throws -> RemoteAnswer {
        try countCall()
        return try channel.wake(tag: tag, at: context.now, details: details)
    }

    /// Counts a call at the current instant; throws past ``ScenarioLimits/remoteCallsAtOneInstant``.
    private func countCall() throws(RemotePluginError) {
        if context.now != instant {
            instant = context.now
            callsAtInstant = 0
        }
        callsAtInstant += 1
        guard callsAtInstant <= ScenarioLimits.remoteCallsAtOneInstant else {
            throw RemotePluginError("called more than \(ScenarioLimits.remoteCallsAtOneInstant) times at \(instant) s without time moving "
                + "(ScenarioLimits.remoteCallsAtOneInstant): it emits what it hears, or wakes itself after 0 s, forever")
        }
    }
}
