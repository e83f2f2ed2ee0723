import RehearseCore

/// The original's screens (sgoodwin/LoginExample): the children the gateway embeds full screen, one at
/// a time: `login`, `home`, and `offline` for the connectivity gate, each with an accessibility
/// label naming the screen.
enum GatewayScene {
    static let preset = ScenePreset(name: "gateway", summary: "the gateway's children: login, home and offline") { scene in
        for (id, label) in [("login", "Log in"), ("home", "Home"), ("offline", "Offline")] {
            var child = Node(id: id, kind: .view, frame: scene.bounds)
            child.text = id
            child.accessibilityLabel = label
            try scene.add(child)
        }
    }
}
