import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse install-dbus-service` writes a file the bus daemon reads as configuration: values that
/// would change its meaning are refused, a bus name is checked by the D-Bus specification's rules,
/// an existing file is kept unless `--force`, and `XDG_DATA_HOME` is used only when absolute.
@Suite struct InstallServiceTests {
    /// A home folder of its own, with `XDG_DATA_HOME` set to `data` (if not nil) inside it.
    private struct Home {
        let folder: URL
        var environment: [String: String]

        init(dataHome: String? = "data") throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-home-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            environment = ProcessInfo.processInfo.environment
            environment["HOME"] = folder.path
            environment["XDG_DATA_HOME"] = dataHome.map { $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path }
        }

        var services: URL { folder.appendingPathComponent("data/dbus-1/services") }

        func install(_ arguments: [String]) throws -> CommandResult {
            try Rehearse.launch(
                Rehearse.productsFolder.appendingPathComponent("rehearse"),
                ["install-dbus-service", "--mode", "manual"] + arguments, in: folder, environment: environment)
        }
    }

    @Test func valuesWithControlCharactersAreRefused() throws {
        let home = try Home()
        let cases = [
            ["--scenario", "x.yaml\nExec=/bin/sh -c evil"], ["--device", "iphone-5\n[D-BUS Service]"],
            ["--plugins", "login-animator\u{7}"], ["--plugins", "gateway", "login-animator\r"], ["--name", "org.x\ny"],
        ]
        for arguments in cases {
            let result = try home.install(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errorOutput.contains("holds a control character"), "\(arguments): \(result.errorOutput)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.services.path), "nothing written")
    }

    @Test func busNamesFollowTheSpecification() throws {
        let home = try Home()
        let invalid = [
            "org..x", "org.x.", ".org.x", "org", "", "org.1x", "org.x y", ":1.2", "org.é.x",
            "org." + String(repeating: "a", count: 300),
        ]
        for name in invalid {
            let result = try home.install(["--name", name, "--print"])
            #expect(result.status == 2, "\(name)")
            #expect(result.errorOutput.contains("is not a well-known bus name"), "\(name): \(result.errorOutput)")
        }
        // `serve`, `inject` and `monitor` refuse them before any bus is reached (libdbus aborted on them).
        for command in [["serve", "--mode", "manual"], ["inject", "tap", "x=1", "y=1"], ["monitor"]] {
            let result = try Rehearse.run(command + ["--name", "org..x"])
            #expect(result.status == 2, "\(command[0]): \(result.errorOutput)")
            #expect(result.errorOutput.contains("'org..x' is not a well-known bus name: an element is empty"), "\(command[0])")
        }
        let longest = "org." + String(repeating: "a", count: 251)
        for name in ["org.x-y._z", "a.b", "_a.-b.c9", longest] {
            let result = try home.install(["--name", name, "--print"])
            #expect(result.status == 0, "\(name): \(result.errorOutput)")
            #expect(result.output.contains("Name=\(name)\n"))
        }
    }

    @Test func anExistingServiceFileIsKeptUnlessForced() throws {
        let home = try Home()
        try FileManager.default.createDirectory(at: home.services, withIntermediateDirectories: true)
        let file = home.services.appendingPathComponent("org.rehearse.Simulator.service")
        try Data("[D-BUS Service]\nName=org.rehearse.Simulator\nExec=/opt/mine\n".utf8).write(to: file)
        let kept = try home.install([])
        #expect(kept.status == 2)
        #expect(kept.errorOutput.contains("\(file.path) exists and says something else; kept it (--force replaces it"))
        #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix("Exec=/opt/mine\n"))
        let forced = try home.install(["--force"])
        #expect(forced.status == 0, "\(forced.errorOutput)")
        #expect(forced.output == "wrote \(file.path)\n")
        #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix(" serve --name org.rehearse.Simulator --mode manual\n"))
        let again = try home.install([])
        #expect(again.status == 0)
        #expect(again.output == "unchanged \(file.path)\n")
    }

    /// The XDG Base Directory specification: "If an implementation encounters a relative path in
    /// any of these variables it should consider the path invalid and ignore it."
    @Test func aRelativeDataHomeIsIgnored() throws {
        for dataHome in ["relative/data", "", "./data"] {
            var home = try Home(dataHome: nil)
            home.environment["XDG_DATA_HOME"] = dataHome
            let result = try home.install([])
            #expect(result.status == 0, "\(dataHome): \(result.errorOutput)")
            let file = home.folder.appendingPathComponent(".local/share/dbus-1/services/org.rehearse.Simulator.service")
            #expect(result.output == "wrote \(file.path)\n", "\(dataHome)")
            #expect(!FileManager.default.fileExists(atPath: home.folder.appendingPathComponent("relative").path))
            #expect(!FileManager.default.fileExists(atPath: home.folder.appendingPathComponent("data").path))
        }
    }
}
