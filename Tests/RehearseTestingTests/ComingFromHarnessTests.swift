import Foundation
import RehearseCore
import RehearseTesting
import Testing

/// docs/coming-from.md's scene, the part "The same words in Swift and Python" uses: the form with
/// its labelled fields and buttons, and the list of 1,500 points under it (y 250 to 568).
private func page(_ scene: Scene) throws {
    func node(_ id: String, _ kind: NodeKind, _ frame: Rect, text: String = "", label: String? = nil) -> Node {
        var node = Node(id: id, kind: kind, frame: frame)
        node.text = text
        node.accessibilityLabel = label
        return node
    }
    try scene.add(node("form", .view, Rect(x: 0, y: 0, width: 320, height: 250)))
    try scene.add(node("title", .label, Rect(x: 20, y: 20, width: 280, height: 30), text: "Sign in"), to: "form")
    try scene.add(node("username", .textField, Rect(x: 20, y: 70, width: 280, height: 30), label: "Username"), to: "form")
    try scene.add(node("login", .button, Rect(x: 20, y: 150, width: 135, height: 40), text: "Log in"), to: "form")
    var list = node("list", .scrollView, Rect(x: 0, y: 250, width: 320, height: 318))
    list.contentSize = Size(width: 320, height: 1500)
    try scene.add(list)
    try scene.add(node("first", .label, Rect(x: 0, y: 0, width: 320, height: 50), text: "First row"), to: "list")
}

/// The `PluginHarness` column of docs/coming-from.md's "The same words in Swift and Python": each
/// cell is the text of a call below, and the calls run in the table's order, each passing.
@Suite struct ComingFromHarnessTests {
    private static let calls: [(text: String, call: @Sendable (PluginHarness<IdlePlugin>) -> Void)] = [
        (#"harness.tap(on: .label("Username"))"#, { $0.tap(on: .label("Username")) }),
        (#"harness.wait(until: "keyboard.visible == true")"#, { $0.wait(until: "keyboard.visible == true") }),
        ("harness.settle()", { $0.settle() }),
        (#"harness.drag(on: .id("list"), by: Point(x: 0, y: -100))"#, { $0.drag(on: .id("list"), by: Point(x: 0, y: -100)) }),
        (
            #"harness.fling(on: .id("list"), velocity: Point(x: 0, y: -2000))"#,
            { $0.fling(on: .id("list"), velocity: Point(x: 0, y: -2000)) }
        ),
        ("harness.settle()", { $0.settle() }),
        (#"#expect(!harness.isVisible(.text("First row")))"#, { #expect(!$0.isVisible(.text("First row"))) }),
        (#"#expect(harness.isVisible(.text("Log in")))"#, { #expect($0.isVisible(.text("Log in"))) }),
    ]

    @Test func theHarnessColumnRunsAsTheTableSays() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/coming-from.md")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| scenario step | `PluginHarness`") })
        let cells = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            String(line.split(separator: "|")[1].trimmingCharacters(in: .whitespaces).dropFirst().dropLast())
        }
        #expect(cells == Self.calls.map(\.text))

        let harness = try PluginHarness(IdlePlugin.self, scene: page)
        for (_, call) in Self.calls { call(harness) }
        #expect(harness.number("list.contentOffset.y") > 300)  // dragged, then flung on
    }
}
