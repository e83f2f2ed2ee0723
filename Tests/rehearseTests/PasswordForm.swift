/// The scenario the golden picture and report tests change: a title, a username and a password
/// field; the password is typed (`hunter2-secret`, which no picture or report may hold), then the
/// picture `typed` is expected, then `more` steps.
func passwordForm(
    name: String = "golden form", usernameY: Double = 260, label: String = "Sign in", picture: String = "typed",
    more: [String] = []
) -> String {
    """
    name: \(name)
    scene:
      nodes:
        - {id: title, kind: label, frame: [20, 200, 280, 30], text: \(label)}
        - {id: username, kind: textField, frame: [20, \(usernameY), 280, 30]}
        - {id: password, kind: textField, frame: [20, 299, 280, 30], secure: true}
    steps:
      - tap: password
      - type: {into: password, text: hunter2-secret}
      - wait: 0.6
      - expect-picture: \(picture)

    """ + more.map { "  - \($0)\n" }.joined()
}
