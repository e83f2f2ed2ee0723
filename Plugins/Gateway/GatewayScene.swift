import RehearseCore

/// The seed's screens (sgoodwin/LoginExample): the children the gateway embeds full screen, one at
/// a time: `login`, `home`, and `offline` for the connectivity gate.
enum GatewayScene {
    static let preset = ScenePreset(name: "gateway", summary: "the gateway's children: login, home and offline") { scene in
        for id in ["login", "home", "offline"] {
            var child = Node(id: id, kind: .view, frame: scene.bounds)
            child.text = id
            try scene.add(child)
        }
    }
}
