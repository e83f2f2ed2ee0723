import LoginEvents
import RehearseCore

/// The gateway view controller (Roundwall, sgoodwin/LoginExample): a login status, `loggedOut` or
/// `loggedIn(apiKey)`, decides which one child is embedded full screen. An authenticator answers
/// `login.submit` with `login.succeeded` or `login.failed`; `logout` logs out.
///
/// Fixed against the original: the child is rebuilt only when the status really changes (the
/// original rebuilt on every assignment), and there is never more than one child once a change is
/// done (the original could embed two and never removed old views). The API key stays inside the
/// plugin: paths and events show `<redacted>`. Options: transitions, a connectivity gate and
/// sections that need a login.
public final class Gateway: Plugin {
    public static let id = "gateway"
    public static let summary = "embeds exactly one child for the login status (Roundwall's gateway)"
    public static let durations = ["transitionDuration", "authenticator.latency"]
    public static let stateKeys = [
        PluginStateKey("status", "the login status", values: ["loggedOut", "loggedIn"]),
        PluginStateKey("child", "the id of the child embedded (children.loggedOut, .loggedIn or .offline, or a section)"),
        PluginStateKey(
            "apiKey", "\"\" while logged out, else <redacted>: the key itself never leaves the plugin",
            values: ["", "<redacted>"]),
        PluginStateKey("transitioning", "whether a transition shows two children", values: ["true", "false"]),
        PluginStateKey("previousChild", "the child a transition is leaving, or \"\""),
        PluginStateKey("online", "the network as the gateway last heard", values: ["true", "false"]),
    ]
    public static let defaultConfiguration = Configuration()
    public static let scene: ScenePreset? = GatewayScene.preset
    public static let events: [any PluginEvent.Type] = [
        LoginSubmit.self, LoginSucceeded.self, LoginFailed.self, Logout.self, GatewayChanged.self, GatewayNavigate.self,
    ]

    /// The login status; the key never leaves the plugin.
    private enum Status: Equatable {
        case loggedOut
        case loggedIn(apiKey: String)

        var name: String { self == .loggedOut ? "loggedOut" : "loggedIn" }
    }

    private let configuration: Configuration
    private let context: PluginContext
    /// How long the authenticator takes to answer.
    private let latency: VirtualTime
    private var status = Status.loggedOut
    private var online = true
    private var section: String?
    /// The children as first found, to rebuild from: each subtree's nodes, parents first.
    private var prototypes: [String: [(node: Node, parent: String?)]]
    private var embedded = ""
    private var outgoing: String?
    private var transitionCount = 0
    private var issuedKeys = 0

    /// What an install builds: the children to embed and the one embedded, kept for the builds of
    /// an exploration's set-up that start from the scene it left (``SetupMemo``).
    private struct Installed {
        var prototypes: [String: [(node: Node, parent: String?)]]
        var embedded: String
    }

    public init(configuration: Configuration, context: PluginContext) throws {
        self.configuration = configuration
        self.context = context
        try Self.checkDurations(configuration, in: context)
        latency = try VirtualTime.duration(configuration.authenticator.latency, field: "authenticator.latency")
        if let installed = context.setupMemo?.installed(context.pluginID, as: Installed.self) {
            // The scene is as this install left it, the child embedded and laid out.
            prototypes = installed.prototypes
            embedded = installed.embedded
        } else {
            prototypes = try Self.prototypes(configuration, in: context.scene)
            for (id, _) in prototypes where context.scene.contains(id) { try context.scene.remove(id) }
            try embed(desiredChild)
            let installed = Installed(prototypes: prototypes, embedded: embedded)
            context.setupMemo?.keepInstall(as: context.pluginID) { installed }
        }
        context.invariant("exactly one child") { [unowned self] in oneChildOutsideTransitions() }
        try context.on(LoginSubmit.self) { [unowned self] submit in authenticate(submit.username) }
        try context.on(Logout.self) { [unowned self] _ in try setStatus(.loggedOut) }
        context.on(.network) { [unowned self] change in
            guard configuration.connectivityGate else { return }
            online = change.online
            try update()
        }
        try context.on(GatewayNavigate.self) { [unowned self] request in
            guard configuration.sections[request.section] != nil else { return }
            section = request.section
            try update()
        }
    }

    public var state: Fields {
        [
            "status": .string(status.name),
            "child": .string(embedded),
            "apiKey": .string(status == .loggedOut ? "" : Redaction.placeholder),
            "transitioning": .bool(outgoing != nil),
            "previousChild": .string(outgoing ?? ""),
            "online": .bool(online),
        ]
    }

    /// The fix against the original: one child embedded, except while a transition shows two.
    private func oneChildOutsideTransitions() -> InvariantOutcome {
        let children = context.scene.children(of: Scene.rootID) ?? []
        guard outgoing == nil, children.count != 1 else { return .holds }
        return .broken(
            actual: "children = \(FieldValue.array(children.map(FieldValue.string)).jsonText)",
            expected: "exactly one child outside a transition")
    }

    // MARK: Status

    private var desiredChild: String {
        let c = configuration
        if c.connectivityGate, !online { return c.children.offline }
        let loggedIn = status != .loggedOut
        if let section, let needsLogin = c.sections[section] {
            return needsLogin && !loggedIn ? c.children.loggedOut : section
        }
        return loggedIn ? c.children.loggedIn : c.children.loggedOut
    }

    private func setStatus(_ new: Status) throws {
        guard new != status else { return }
        status = new
        try update()
    }

    private func authenticate(_ username: String) {
        let authenticator = configuration.authenticator
        context.schedule(after: latency) { [unowned self] in
            let accepted = !authenticator.fail && (authenticator.users.isEmpty || authenticator.users.contains(username))
            guard accepted else {
                let reason = authenticator.fail ? "the authenticator refused" : "unknown user"
                try context.emit(LoginFailed(username: username, reason: reason))
                return
            }
            issuedKeys += 1
            try setStatus(
                .loggedIn(apiKey: "key-\(issuedKeys)-\(username.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) })"))
            try context.emit(LoginSucceeded(username: username))
        }
    }

    // MARK: Embedding

    /// Shows the desired child if it is not the one embedded, with the configured transition.
    private func update() throws {
        let desired = desiredChild
        guard desired != embedded else { return }
        if let outgoing { try finishTransition(removing: outgoing) }
        let previous = embedded
        try embed(desired)
        try context.emit(GatewayChanged(status: status.name, child: desired))
        guard configuration.transition != .none, context.scene.contains(previous) else {
            if context.scene.contains(previous) { try context.scene.remove(previous) }
            return
        }
        outgoing = previous
        transitionCount += 1
        let token = transitionCount
        let bounds = context.scene.bounds
        let squeezed = Rect(x: bounds.midX, y: 0, width: 0, height: bounds.size.height)
        if configuration.transition == .fade {
            try context.set(SIMD4(0, 0, 0, 0), for: .alpha, of: desired)
        } else {
            try context.set(squeezed.vector, for: .frame, of: desired)
        }
        try context.animate(AnimationParameters(duration: configuration.transitionDuration)) {
            if configuration.transition == .fade {
                try context.set(SIMD4(1, 0, 0, 0), for: .alpha, of: desired)
                try context.set(SIMD4(0, 0, 0, 0), for: .alpha, of: previous)
            } else {
                try context.set(bounds.vector, for: .frame, of: desired)
                try context.set(squeezed.vector, for: .frame, of: previous)
            }
        } completion: { [unowned self] _ in
            guard token == transitionCount, let outgoing else { return }
            try finishTransition(removing: outgoing)
        }
    }

    private func finishTransition(removing id: String) throws {
        outgoing = nil
        if context.scene.contains(id) { try context.scene.remove(id) }
    }

    /// Adds a fresh copy of the child's subtree, full screen, and lays it out if the scene has a layout.
    private func embed(_ id: String) throws {
        guard let nodes = prototypes[id] else { return }
        for (index, entry) in nodes.enumerated() {
            var node = entry.node
            if index == 0 { node.frame = context.scene.bounds }
            try context.scene.add(node, to: entry.parent)
        }
        embedded = id
        try context.layout?.layOutAgain()
    }

    /// The configured children the scene has, each subtree's nodes as they are now, parents first;
    /// throws if a child the configuration needs is not there.
    private static func prototypes(_ c: Configuration, in scene: Scene) throws -> [String: [(node: Node, parent: String?)]] {
        var required = [c.children.loggedOut, c.children.loggedIn] + c.sections.keys.sorted()
        if c.connectivityGate { required.append(c.children.offline) }
        var prototypes: [String: [(node: Node, parent: String?)]] = [:]
        for id in Set(required + [c.children.offline]).sorted() {
            guard scene[id] != nil else {
                if required.contains(id) { throw GatewayError.missingChild(id) }
                continue
            }
            prototypes[id] = subtree(id, in: scene)
        }
        return prototypes
    }

    private static func subtree(_ id: String, in scene: Scene) -> [(node: Node, parent: String?)] {
        let ids = scene.allIDs.filter { $0 == id || scene.ancestors(of: $0).contains(id) }
        return ids.compactMap { member in
            scene[member].map { ($0, member == id ? nil : $0.parent) }
        }
    }
}

/// A gateway that cannot start.
public enum GatewayError: Error, Equatable, CustomStringConvertible {
    /// A configured child is not in the scene.
    case missingChild(String)

    public var description: String {
        switch self {
        case .missingChild(let id): "the scene has no child '\(id)' to embed"
        }
    }
}
