import Foundation
import IntegrationTestSupport
import Testing

@testable import RehearseDBusInterface
@testable import RehearsePluginHost

/// docs/remote-plugins.md says exactly what a plugin gets (issue 37): its introspection is what the
/// host and `rehearse.plugin` answer, valid against the freedesktop DTD; every error the plugin
/// side can get is in its table; the environment is as its table says.
@Suite struct RemotePluginDocumentTests {
    static let document = Rehearse.packageRoot.appendingPathComponent("docs/remote-plugins.md")

    /// The document's ```xml blocks.
    static func xmlBlocks() throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        return text.matches(of: /```xml\n(?<xml>(?s:.)*?)```/).map { String($0.output.xml) }
    }

    @Test func itsIntrospectionIsValidAgainstTheDTD() throws {
        let blocks = try Self.xmlBlocks()
        #expect(blocks.count == 2)
        for block in blocks {
            #expect(try PluginConnectionClientTests.problemsAgainstTheDTD(block) == "", "\(block)")
        }
    }

    @Test func itsIntrospectionIsWhatThePluginAndTheHostAnswer() throws {
        let blocks = try Self.xmlBlocks()
        try #require(blocks.count == 2)
        let python = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import sys; sys.path.insert(0, 'clients/python'); from rehearse import plugin; print(plugin._INTROSPECTION, end='')",
            ])
        #expect(blocks[0] == python.output, "\(python.output)\(python.errorOutput)")
        #expect(blocks[1] == PluginHostStandardMethods.xml(for: PluginPeerLink.hostPath))
    }

    /// Every error name the plugin connection's code replies with (each `MethodFailure(NAME, ...)`
    /// in Sources/RehearsePluginHost, by the constant's name) is in the table of errors
    /// the plugin gets.
    @Test func everyErrorThePluginGetsIsInTheTable() throws {
        let names = [
            "invalidRegistration": SimulatorError.invalidRegistration,
            "alreadyRegistered": SimulatorError.alreadyRegistered,
            "invalidArgs": SimulatorError.invalidArgs,
            "unknownMethod": SimulatorError.unknownMethod,
            "unknownObject": SimulatorError.unknownObject,
            "failed": SimulatorError.failed,
        ]
        let folder = Rehearse.packageRoot.appendingPathComponent("Sources/RehearsePluginHost")
        var used: Set<String> = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            // `MethodFailure(SimulatorError.invalidRegistration, ...` or `MethodFailure(.invalidRegistration, ...`
            for match in source.matches(of: /MethodFailure\(\s*(?:[A-Za-z]*\.)?(?<name>[A-Za-z]+),/) {
                used.insert(String(match.output.name))
            }
        }
        #expect(used == Set(names.keys), "the code replies with \(used.sorted())")
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let table = try #require(
            text.components(separatedBy: "### Errors the plugin gets").last?.components(separatedBy: "\n\n").dropFirst().first)
        for name in names.values { #expect(table.contains("| `\(name.rawValue)` |"), "\(name.rawValue) is not in the table") }
    }

    /// The address carries the server's guid, and standard input is /dev/null (the program records
    /// both, then exits: the run's set-up fails, which is not the test).
    @Test func theEnvironmentIsAsTheTableSays() throws {
        let (address, run) = try PluginConnectionClientTests.output(
            of: ["sh", "-c", #"echo "$REHEARSE_PLUGIN_ADDRESS" > client.out; readlink /proc/self/fd/0 >> client.out"#])
        let lines = address.split(separator: "\n")
        #expect(lines.count == 2, "\(address)\(run)")
        #expect(lines.first?.wholeMatch(of: /unix:path=[^,]+\/socket,guid=[0-9a-f]{32}/) != nil, "\(address)")
        #expect(lines.last == "/dev/null")
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(text.contains("(`unix:path=...,guid=...`)") && text.contains("Standard input is `/dev/null`"))
    }
}
