import Foundation
import IntegrationTestSupport
import Testing

/// Issue 37: stock D-Bus clients work on a command plugin's private connection unmodified. GDBus,
/// sd-bus (busctl), jeepney and dbus-fast greet it with `Hello` as they greet a bus, and ask
/// `org.freedesktop.DBus.Peer` and `Introspect`; each is the plugin program itself (`exec`), since
/// the connection takes its own program's only. None registers, so each run ends its set-up with
/// exit code 2 once the client is done; what the client printed is the test.
@Suite struct PluginConnectionClientTests {
    static let client = Rehearse.packageRoot.appendingPathComponent("Tests/RehearseDBusIntegrationTests/stock_plugin_client.py")
        .path
    static let introspectionDTD = "/usr/share/xml/dbus-1/introspect.dtd"

    /// Runs a file whose one plugin is `command`, and returns what the plugin wrote to `output`
    /// (in the file's folder) and the run's.
    static func output(of command: [String], in output: String = "client.out") throws -> (text: String, run: String) {
        let words = command.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ", ")
        let file = try Rehearse.scenario(
            """
            name: a stock client on the plugin connection
            plugins:
              - {id: stock, command: [\(words)]}
            steps: []
            """)
        let result = try Rehearse.runWithin(["run", file.path])
        let text =
            (try? String(contentsOf: file.deletingLastPathComponent().appendingPathComponent(output), encoding: .utf8)) ?? ""
        return (text, "status \(result.status)\n\(result.output)\(result.errorOutput)")
    }

    /// `exec TOOL ARGUMENTS > client.out 2>&1`, with `$REHEARSE_PLUGIN_ADDRESS` in the arguments.
    static func exec(_ tool: String) -> [String] {
        ["sh", "-c", "exec \(tool) > client.out 2>&1"]
    }

    /// A destination, as gdbus asks of a connection that said `Hello` (the host ignores it).
    static let gdbus =
        #"gdbus call --address "$REHEARSE_PLUGIN_ADDRESS" --dest org.rehearse.Simulator --object-path /org/rehearse/Simulator --method"#
    static let busctl = #"/usr/bin/busctl --address="$REHEARSE_PLUGIN_ADDRESS""#

    @Test func gdbusPingsAndGetsTheMachineId() throws {
        let ping = try Self.output(of: Self.exec("\(Self.gdbus) org.freedesktop.DBus.Peer.Ping"))
        #expect(ping.text == "()\n", "\(ping.text)\(ping.run)")
        let machine = try Self.output(of: Self.exec("\(Self.gdbus) org.freedesktop.DBus.Peer.GetMachineId"))
        #expect(machine.text.wholeMatch(of: /\('[0-9a-f]{32}',\)\n/) != nil, "\(machine.text)\(machine.run)")
    }

    /// gdbus introspects the host's object: its interface, in XML the freedesktop DTD accepts.
    @Test func gdbusIntrospectsTheHost() throws {
        let introspect = try Self.output(
            of: Self.exec(
                #"gdbus introspect --xml --address "$REHEARSE_PLUGIN_ADDRESS" --dest org.rehearse.Simulator --object-path /org/rehearse/Simulator"#
            ))
        #expect(introspect.text.contains(#"<interface name="org.rehearse.PluginHost1">"#), "\(introspect.text)\(introspect.run)")
        #expect(introspect.text.contains(#"<method name="RegisterPlugin">"#))
        #expect(try Self.problemsAgainstTheDTD(introspect.text) == "", "\(introspect.text)")
    }

    /// busctl (sd-bus, `sd_bus_set_address` and a bus client's `Hello`) calls and introspects.
    @Test func busctlCallsAndIntrospects() throws {
        let machine = try Self.output(
            of: Self.exec(
                "\(Self.busctl) call org.rehearse.Simulator /org/rehearse/Simulator org.freedesktop.DBus.Peer GetMachineId"))
        #expect(machine.text.wholeMatch(of: /s "[0-9a-f]{32}"\n/) != nil, "\(machine.text)\(machine.run)")
        let introspect = try Self.output(
            of: Self.exec("\(Self.busctl) introspect org.rehearse.Simulator /org/rehearse/Simulator"))
        #expect(introspect.text.contains("org.rehearse.PluginHost1"), "\(introspect.text)\(introspect.run)")
        #expect(introspect.text.contains(".RegisterPlugin"), "\(introspect.text)")
    }

    /// A program that closes its connection without registering is let end (within its
    /// deadline) before the run says so: what it writes after closing, as busctl prints after it
    /// closes, is kept, and the error says how it ended. (It was ended at once: "the program is
    /// running", and the file never written.)
    @Test func aProgramThatClosesItsConnectionIsLetEndAndSaidHowItEnded() throws {
        // One line: the plugin's command is a YAML flow scalar, which folds line breaks.
        let program =
            "import os, sys, time; from jeepney.io.blocking import open_dbus_connection; "
            + "open_dbus_connection(bus=os.environ['REHEARSE_PLUGIN_ADDRESS']).close(); time.sleep(0.3); "
            + "open('late.out', 'w').write('written after closing\\n'); sys.exit(3)"
        let (text, run) = try Self.output(of: ["python3", "-c", program], in: "late.out")
        #expect(text == "written after closing\n", "\(run)")
        #expect(
            run.contains("plugin 'stock' closed its connection before it registered (the program exited with status 3)"), "\(run)"
        )
    }

    /// jeepney's `open_dbus_connection` and dbus-fast's `MessageBus.connect()` get a name from
    /// `Hello` (a unique name's form: `:` and dotted, the same for a second `Hello`), a `Ping`,
    /// the machine id and the host's interfaces.
    @Test(arguments: ["jeepney", "dbus-fast"])
    func pythonClientsConnectAsToABus(library: String) throws {
        let (text, run) = try Self.output(of: ["python3", Self.client, library], in: "stock.out")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(text)\(run)")
        guard lines.count == 4 else { return }
        // The same name for a second `Hello` on the connection.
        #expect(lines[0].wholeMatch(of: /(:plugin\.[0-9]+) again \1/) != nil, "\(lines[0])")
        #expect(lines[1].hasPrefix("ping ()") || lines[1].hasPrefix("ping [] []"), "\(lines[1])")
        #expect(lines[2].wholeMatch(of: /machine [0-9a-f]{32}/) != nil, "\(lines[2])")
        #expect(
            lines[3] == "org.freedesktop.DBus.Introspectable org.freedesktop.DBus.Peer org.rehearse.PluginHost1", "\(lines[3])")
    }

    /// What xmllint says of `xml` against the freedesktop introspection DTD: nothing when valid.
    static func problemsAgainstTheDTD(_ xml: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dtd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("introspection.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let result = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/xmllint"),
            ["--noout", "--nonet", "--dtdvalid", introspectionDTD, file.path])
        return result.status == 0 ? "" : result.output + result.errorOutput
    }
}
