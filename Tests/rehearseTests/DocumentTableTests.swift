import Foundation
import IntegrationTestSupport
import RehearseCore
import RehearsePlugins
import RehearseSession
import Testing

@testable import RehearseDBusInterface

/// The documents' tables of things the code lists (device presets, D-Bus methods, plugins) hold
/// exactly what the code holds: each test names what a table misses and what it has that the code
/// does not. (The step table is `LoaderTests.theDocumentedStepsAreExactlyTheParsedOnes`, the event
/// table `DocumentationTests.thePluginGuidesPayloadTableIsTheCodes`.)
@Suite struct DocumentTableTests {
    /// Scenarios/README.md's devices table: a row per preset, in `rehearse devices`' order, with
    /// its screen, refresh rate, keyboard heights and safe area as the preset has them.
    @Test func theDevicesTableIsThePresets() throws {
        let rows = try Self.table(in: "Scenarios/README.md", header: "| preset |")
        Self.expectSame(
            documented: rows.map { Self.code(in: $0[0]) }, code: Device.presetList.map(\.name), in: "the devices table")
        #expect(rows.map { Self.code(in: $0[0]) } == Device.presetList.map(\.name), "the devices table's order")
        for device in Device.presetList {
            guard let row = rows.first(where: { Self.code(in: $0[0]) == device.name }) else { continue }
            #expect(Array(row.dropFirst()) == Self.cells(of: device), "the devices table's row of \(device.name)")
        }
    }

    /// docs/dbus.md's methods table: a row per `SimulatorMethod`, with its arguments and reply as
    /// the introspection gives them.
    @Test func theDBusMethodsTableIsTheMethods() throws {
        let rows = try Self.table(in: "docs/dbus.md", header: "| method | does |")
        Self.expectSame(
            documented: rows.map { Self.code(in: $0[0]) }, code: SimulatorMethod.allCases.map(\.documented),
            in: "docs/dbus.md's methods table")
    }

    /// docs/dbus.md's errors table: a row per error name the service and the plugin host reply
    /// with (`SimulatorError`, the one list the replies are built from).
    @Test func theDBusErrorsTableIsTheErrors() throws {
        let rows = try Self.table(in: "docs/dbus.md", header: "| error | when |")
        Self.expectSame(
            documented: rows.map { Self.code(in: $0[0]) }, code: SimulatorError.allCases.map(\.rawValue),
            in: "docs/dbus.md's errors table")
    }

    /// docs/dbus.md's properties table is `SessionProperty`, row for row: name, D-Bus type,
    /// whether its changes are announced, and what it holds.
    @Test func theDBusPropertiesTableIsTheProperties() throws {
        let rows = try Self.table(in: "docs/dbus.md", header: "| property | type | announced | holds |")
        let expected: [[String]] = SessionProperty.allCases.map { property in
            let announced = property.isAnnounced ? "yes" : "no"
            return ["`\(property.rawValue)`", "`\(property.dbusType)`", announced, property.summary]
        }
        let lines = expected.map { "| " + $0.joined(separator: " | ") + " |" }
        #expect(rows == expected, "docs/dbus.md's properties table should be:\n\(lines.joined(separator: "\n"))")
    }

    /// The README's plugin table and Scenarios/README.md's "Plugins and their scenes" list the
    /// shipped plugins.
    @Test(arguments: [
        ("README.md", "| plugin | the write-up it reproduces |"), ("Scenarios/README.md", "| plugin | scene and node ids |"),
    ])
    func thePluginTablesAreTheShippedPlugins(document: String, header: String) throws {
        let rows = try Self.table(in: document, header: header)
        Self.expectSame(
            documented: rows.map { Self.code(in: $0[0]) }, code: shippedPlugins.descriptors.map(\.id),
            in: "\(document)'s plugin table")
    }

    /// docs/ARCHITECTURE.md's module graph: a row per target that is not a test, with the package's
    /// targets it depends on in backquotes and the other packages' products in italics, as
    /// `swift package dump-package` reads Package.swift.
    @Test func theArchitectureModuleTableIsThePackage() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dumped = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "package", "--scratch-path", scratch.path, "dump-package"])
        try #require(dumped.status == 0, "swift package dump-package: \(dumped.errorOutput)")
        let package = try #require(try JSONSerialization.jsonObject(with: Data(dumped.output.utf8)) as? [String: Any])
        let targets = try #require(package["targets"] as? [[String: Any]]).filter { $0["type"] as? String != "test" }
        let names = Set(targets.compactMap { $0["name"] as? String })
        let rows = try Self.table(in: "docs/ARCHITECTURE.md", header: "| target | depends on |")
        Self.expectSame(
            documented: rows.map { Self.code(in: $0[0]) }, code: targets.compactMap { $0["name"] as? String },
            in: "docs/ARCHITECTURE.md's module table")
        for target in targets {
            guard let name = target["name"] as? String, let row = rows.first(where: { Self.code(in: $0[0]) == name }) else {
                continue
            }
            // Each dependency is `{"byName": [NAME, condition]}`, `{"target": [...]}` or `{"product": [NAME, PACKAGE, ...]}`.
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? [])
                .compactMap { ($0.values.first as? [Any])?.first as? String }
            let cell = row[1].split(separator: "`", omittingEmptySubsequences: false)
            let documented = Set(stride(from: 1, to: cell.count, by: 2).map { String(cell[$0]) })
            let italics = row[1].split(separator: "*", omittingEmptySubsequences: false)
            let documentedProducts = Set(stride(from: 1, to: italics.count, by: 2).map { String(italics[$0]) })
            #expect(documented == Set(dependencies.filter(names.contains)), "docs/ARCHITECTURE.md's row of \(name): its targets")
            #expect(
                documentedProducts == Set(dependencies.filter { !names.contains($0) }),
                "docs/ARCHITECTURE.md's row of \(name): its products")
        }
    }

    // MARK: Reading tables

    /// The cells of each row of the Markdown table in `document` whose header line starts with
    /// `header` (`\|` inside a cell is not a separator).
    static func table(in document: String, header: String) throws -> [[String]] {
        let text = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix(header) }, "no table \(header) in \(document)")
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.replacingOccurrences(of: "\\|", with: "\u{0}").split(separator: "|")
                .map { $0.replacingOccurrences(of: "\u{0}", with: "|").trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The text between the first pair of backquotes in `cell`.
    static func code(in cell: String) -> String {
        cell.split(separator: "`", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? cell
    }

    static func expectSame(
        documented: [String], code: [String], in table: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let missing = code.filter { !documented.contains($0) }
        let extra = documented.filter { !code.contains($0) }
        #expect(missing.isEmpty, "\(table) misses \(missing)", sourceLocation: sourceLocation)
        #expect(extra.isEmpty, "\(table) has \(extra), which the code does not", sourceLocation: sourceLocation)
    }

    /// A device's row after its name: screen, refresh, keyboard and safe area in both orientations.
    static func cells(of device: Device) -> [String] {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        func insets(_ orientation: Orientation) -> String {
            let safeArea = device.safeArea(in: orientation, statusBarHidden: false)
            return [safeArea.top, safeArea.left, safeArea.bottom, safeArea.right].map(number).joined(separator: " ")
        }
        return [
            "\(number(device.screen.width)) × \(number(device.screen.height)) @\(device.scale)x", "\(device.refreshRate) Hz",
            "\(number(device.portrait.keyboardHeight)) / \(number(device.landscape.keyboardHeight))",
            "\(insets(.portrait)) / \(insets(.landscapeLeft))",
        ]
    }
}

extension SimulatorMethod {
    /// The method as docs/dbus.md writes it: `Inject(s name, a{sv} fields) -> (t sequence)`.
    var documented: String {
        func arguments(_ list: [Argument]) -> String { list.map { "\($0.type) \($0.name)" }.joined(separator: ", ") }
        return "\(rawValue)(\(arguments(inputs)))" + (outputs.isEmpty ? "" : " -> (\(arguments(outputs)))")
    }
}
