/// The stand-in of a remote plugin in one simulation: it subscribes for it, calls it through its
/// channel for every event it subscribed to, and applies each answer through its context, exactly
/// as a Swift plugin's calls would be made.
final class RemotePlugin: PluginInstance {
    private let channel: any RemotePluginChannel
    private let context: PluginContext
    /// The paths whose values go with every call, resolved once (a node's animatable property is
    /// read through a handle); nil when it registered without reads.
    private let reads: [PathReader]?
    /// The state of the last answer.
    private(set) var state: Fields = [:]
    /// The instant of the last call, and how many calls were made at it.
    private var instant: VirtualTime = .zero
    private var callsAtInstant = 0

    init(
        subscriptions: [String], reads: [String]?, configuration: Fields, channel: any RemotePluginChannel,
        context: PluginContext
    ) throws {
        self.channel = channel
        self.context = context
        let paths = reads?.map(ValuePath.init)
        try context.simulation.checkReads(paths ?? [], of: context.pluginID)
        self.reads = paths?.map(context.reader(for:))
        for name in subscriptions {
            try context.on(named: name) { [unowned self] delivered in
                try countCall()
                let answer = try channel.deliver(delivered, reads: readValues())
                try apply(answer, answering: "Deliver(\(delivered.event.name))")
            }
        }
        try apply(channel.install(configuration: configuration), answering: "Install")
    }

    /// The values of the paths it reads now, path to value (an absent value left out), with every
    /// secure field's text redacted; nil when it registered without reads.
    private func readValues() throws -> Fields? {
        guard let reads else { return nil }
        var values: Fields = [:]
        for reader in reads {
            values[reader.path.text] = try context.value(of: reader)
        }
        return FieldValue.redacting(values, SecretMatcher(context.scene.secureTexts)) ?? values
    }

    /// Applies `answer`, the answer to `call` (`Deliver(scroll.willEndDragging)`, `Wake(tag)`).
    private func apply(_ answer: RemoteAnswer, answering call: String) throws {
        state = answer.state
        for (index, effect) in answer.effects.enumerated() {
            do {
                try apply(effect, answering: call)
            } catch {
                throw RemotePluginError("effect \(index + 1) (\(effect.kind.rawValue)): \(error)")
            }
        }
    }

    private func apply(_ effect: RemoteEffect, answering call: String) throws {
        switch effect {
        case .emit(let name, let fields):
            try context.emit(named: name, fields: fields)
        case .set(let path, let value):
            try context.setValue(value, at: path)
        case .animate(let parameters, let changes, let completion):
            let done: ((Bool) throws -> Void)? = completion.map { tag in
                { [unowned self] finished in
                    try apply(wake(tag, details: ["finished": .bool(finished)]), answering: "Wake(\(tag))")
                }
            }
            try context.animate(
                parameters,
                changes: {
                    for (path, value) in changes.sorted(by: { $0.key < $1.key }) { try context.setValue(value, at: path) }
                }, completion: done)
        case .activate(let sets):
            guard let layout = context.layout else { throw RemotePluginError("the scene has no constraint layout") }
            try layout.activate(sets)
        case .schedule(let delay, let tag):
            guard context.pendingCount < ScenarioLimits.pendingEvents else {
                throw RemotePluginError(
                    "\(ScenarioLimits.pendingEvents) items already wait on the clock (ScenarioLimits.pendingEvents, the limit)")
            }
            context.schedule(after: delay) { [unowned self] in try apply(wake(tag, details: [:]), answering: "Wake(\(tag))") }
        case .targetOffset(let scrollView, let offset):
            guard call == RemoteEffect.targetOffsetCall else {
                throw RemotePluginError(
                    "target-offset answers \(RemoteEffect.targetOffsetCall) only, as targetContentOffset is set in "
                        + "scrollViewWillEndDragging; this answers \(call)")
            }
            guard context.setTargetContentOffset(offset, of: scrollView) else {
                throw RemotePluginError("'\(scrollView)' is not the scroll view released now")
            }
        }
    }

    private func wake(_ tag: String, details: Fields) throws -> RemoteAnswer {
        try countCall()
        return try channel.wake(tag: tag, at: context.now, details: details, reads: readValues())
    }

    /// Counts a call at the current instant; throws past ``ScenarioLimits/remoteCallsAtOneInstant``.
    private func countCall() throws(RemotePluginError) {
        if context.now != instant {
            instant = context.now
            callsAtInstant = 0
        }
        callsAtInstant += 1
        guard callsAtInstant <= ScenarioLimits.remoteCallsAtOneInstant else {
            throw RemotePluginError(
                "called more than \(ScenarioLimits.remoteCallsAtOneInstant) times at \(instant) s without time moving "
                    + "(ScenarioLimits.remoteCallsAtOneInstant): it emits what it hears, or wakes itself after 0 s, forever")
        }
    }
}
