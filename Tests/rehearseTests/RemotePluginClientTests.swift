import Foundation
import Testing

/// The plugin side of docs/remote-plugins.md: clients/python's tests (rehearse_plugin against a
/// host of their own over a real socket, and the undo-shake example in Python and in C answering
/// every call alike) run with the `python3` on the PATH, as the other Python clients' tests do,
/// with this build's `rehearse` for the ones that run a scenario.
@Suite struct RemotePluginClientTests {
    static func unittest(_ folder: String) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["REHEARSE"] = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        return try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/env"),
                                   ["python3", "-m", "unittest", "discover", "-s", folder], environment: environment)
    }

    @Test func thePythonPluginModulesTestsPass() throws {
        let result = try Self.unittest("clients/python/tests")
        #expect(result.status == 0, "\(result.errorOutput)")
        // All of them ran: none skipped for want of the tool or a C compiler.
        #expect(result.errorOutput.hasSuffix("\nOK\n"), "\(result.errorOutput)")
    }
}
