import Foundation
import Testing

/// The plugin side of docs/remote-plugins.md: clients/python's tests (rehearse_plugin against a
/// host of their own over a real socket, the undo-shake example in Python and in C answering every
/// call alike and making one trace) and the example's own tests, run with the `python3` on the
/// PATH as the other Python clients' tests are, with this build's `rehearse` for the scenarios.
@Suite struct RemotePluginClientTests {
    static func unittest(_ folder: String) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["REHEARSE"] = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        return try Rehearse.launch(URL(fileURLWithPath: "/usr/bin/env"),
                                   ["python3", "-m", "unittest", "discover", "-s", folder], environment: environment)
    }

    /// All of them pass, and all ran: none skipped for want of the tool or a C compiler.
    @Test(arguments: ["clients/python/tests", "Examples/RemotePlugins"])
    func thePythonTestsPass(folder: String) throws {
        let result = try Self.unittest(folder)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.hasSuffix("\nOK\n"), "\(result.errorOutput)")
    }
}
