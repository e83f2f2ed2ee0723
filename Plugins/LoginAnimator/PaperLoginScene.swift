import RehearseCore

/// The original's screen (vijaysharm, "Facebook's Paper Login"): a title label, a username field
/// (Next), a one-point separator and a password field (Go, secure), both fields with
/// `enablesReturnKeyAutomatically`. Frames come from the login animator's constraint sets. The
/// title is a header; the fields are labelled `Username` and `Password`, as their placeholders say.
enum PaperLoginScene {
    static let preset = ScenePreset(name: "paper-login", summary: "Paper's login form: title, username, separator, password") {
        scene in
        var title = Node(id: "title", kind: .label, frame: .zero)
        title.text = "Paper"
        title.accessibilityTraits = [.staticText, .header]
        try scene.add(title)
        var username = Node(id: "username", kind: .textField, frame: .zero)
        username.returnKey = .next
        username.enablesReturnKeyAutomatically = true
        username.accessibilityLabel = "Username"
        try scene.add(username)
        try scene.add(Node(id: "separator", kind: .view, frame: .zero))
        var password = Node(id: "password", kind: .textField, frame: .zero)
        password.returnKey = .go
        password.secure = true
        password.enablesReturnKeyAutomatically = true
        password.accessibilityLabel = "Password"
        try scene.add(password)
    }
}
