import Foundation
import IntegrationTestSupport
import Testing

/// The plugin side of docs/remote-plugins.md: the undo-shake example's own tests (its handlers in
/// process, its scenario with the real tool), run with the `python3` on the PATH as the other
/// Python clients' tests are, with this build's `rehearse` for the scenarios. The package's tests
/// (`PythonPackageTests`) run the same way.
@Suite struct RemotePluginClientTests {
    static func unittest(_ folder: String) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["REHEARSE"] = Rehearse.productsFolder.appendingPathComponent("rehearse").path
        return try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-m", "unittest", "discover", "-s", folder], environment: environment)
    }

    /// All of them pass, and all ran: none skipped for want of the tool or a C compiler.
    @Test func theExamplesTestsPass() throws {
        let result = try Self.unittest("Examples/RemotePlugins")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.hasSuffix("\nOK\n"), "\(result.errorOutput)")
    }
}
