import Foundation
import Testing

@testable import RehearseView

/// The viewer's page, script and styles are files of their own (`Sources/RehearseView/Page`),
/// checked here by tools for their languages, and the binary serves them as they are.
@Suite struct ViewerPageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/RehearseView/Page").standardized

    /// `node --check` on `text` written to a file: its exit status and what it said.
    private func nodeCheck(_ text: String) throws -> (status: Int32, said: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString).js")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "--check", file.path]
        let said = Pipe()
        node.standardError = said
        node.standardOutput = said
        try node.run()
        let output = said.fileHandleForReading.readDataToEndOfFile()
        node.waitUntilExit()
        return (node.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func theBinaryServesThePagesFiles() throws {
        for (name, served) in [
            ("viewer.html", ViewerPage.html), ("viewer.js", ViewerPage.script), ("viewer.css", ViewerPage.style),
        ] {
            #expect(try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8) == served, "\(name)")
        }
    }

    /// Node.js parses the script (and refuses it with one bracket missing, so the check can fail).
    @Test func theScriptParses() throws {
        let parsed = try nodeCheck(ViewerPage.script)
        #expect(parsed.status == 0, "\(parsed.said)")
        let broken = try nodeCheck(
            ViewerPage.script.replacingOccurrences(of: "function receive(message) {", with: "function receive(message) "))
        #expect(broken.status != 0 && broken.said.contains("SyntaxError"), "\(broken.said)")
    }

    /// Every element the script looks up by id (`$("id")`) is on the page.
    @Test func everyElementTheScriptLooksUpIsOnThePage() throws {
        let lookedUp = Set(ViewerPage.script.matches(of: /\$\("([^"]+)"\)/).map { String($0.output.1) })
        let onThePage = Set(ViewerPage.html.matches(of: /\sid="([^"]+)"/).map { String($0.output.1) })
        #expect(lookedUp.count > 10, "\(lookedUp)")
        #expect(
            lookedUp.subtracting(onThePage).isEmpty, "looked up and not on the page: \(lookedUp.subtracting(onThePage).sorted())")
    }
}
