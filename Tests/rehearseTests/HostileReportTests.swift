import Foundation
import Testing

/// The texts of every file under `folder`.
private func texts(under folder: URL) throws -> [(file: String, text: String)] {
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return try files.compactMap { file in
        let url = folder.appendingPathComponent(file)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return (file, try String(contentsOf: url, encoding: .utf8))
    }
}

/// `run --report DIR` attacked as a hostile scenario file, its name and its folder would.
@Suite struct HostileReportTests {
    /// A failing expectation that quotes the password typed into a secure field (as its expected
    /// value, or as an event expectation's field) never puts it in a report.
    @Test func aFailingExpectationNeverShowsTheTypedPassword() throws {
        let file = try Rehearse.scenario("""
            name: secrets
            scene:
              nodes:
                - {id: login, kind: view, frame: [0, 0, 320, 568]}
                - {id: title, kind: label, parent: login, text: Paper, frame: [0, 0, 0, 0]}
                - {id: username, kind: textField, parent: login, frame: [0, 0, 0, 0], returnKey: next}
                - {id: separator, kind: view, parent: login, frame: [0, 0, 0, 0]}
                - {id: password, kind: textField, parent: login, frame: [0, 0, 0, 0], returnKey: go, secure: true}
                - {id: home, kind: view, frame: [0, 0, 320, 568]}
            plugins:
              login-animator: {submitAnimation: true}
              gateway: {authenticator: {users: [vijay], latency: 1.0}}
            steps:
              - tap: username
              - type: {into: username, text: vijay}
              - return: username
              - type: {into: password, text: "correct \\"horse\\""}
              - expect: {password.text: "correct \\"horse\\""}
              - return: password
              - expect-event: {name: login.submit, fields: {username: "correct \\"horse\\""}}
              - expect: {title.text: "not correct \\"horse\\" either"}
            """, named: "login.yaml")
        let folder = file.deletingLastPathComponent()
        for format in ["text", "json", "junit"] {
            let result = try Rehearse.run(["run", "--format", format, "--report", "report", "login.yaml"], in: folder)
            #expect(result.status == 1)
            #expect(result.output.contains("redacted") && !result.output.contains("horse"), "\(format): \(result.output)")
        }
        let files = try texts(under: folder.appendingPathComponent("report"))
        #expect(files.count == 2)
        for (file, text) in files {
            #expect(text.contains("&lt;redacted&gt;") && !text.contains("horse"), "\(file) holds the typed password")
        }
    }
}
