import Foundation
import RehearseCore
@testable import RehearseDBus
import RehearsePlugins
import Testing

/// The documents' tables of things the code lists (device presets, D-Bus methods, plugins) hold
/// exactly what the code holds: each test names what a table misses and what it has that the code
/// does not. (The step table is `LoaderTests.theDocumentedStepsAreExactlyTheParsedOnes`, the event
/// table `DocumentationTests.thePluginGuidesPayloadTableIsTheCodes`.)
@Suite struct DocumentTableTests {
    /// Scenarios/README.md's devices table: a row per preset, in `rehearse devices`' order, with
    /// its screen, refresh rate, keyboard heights and safe area as the preset has them.
    @Test func theDevicesTableIsThePresets() throws {
        let rows = try Self.table(in: "Scenarios/README.md", header: "| preset |")
        Self.expectSame(documented: rows.map { Self.code(in: $0[0]) }, code: Device.presetList.map(\.name), in: "the devices table")
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
        Self.expectSame(documented: rows.map { Self.code(in: $0[0]) }, code: SimulatorMethod.allCases.map(\.documented),
                        in: "docs/dbus.md's methods table")
    }

    /// The README's plugin table and Scenarios/README.md's "Plugins and their scenes" list the
    /// shipped plugins.
    @Test(arguments: [("README.md", "| plugin | the write-up it reproduces |"), ("Scenarios/README.md", "| plugin | scene and node ids |")])
    func thePluginTablesAreTheShippedPlugins(document: String, header: String) throws {
        let rows = try Self.table(in: document, header: header)
        Self.expectSame(documented: rows.map { Self.code(in: $0[0]) }, code: shippedPlugins.descriptors.map(\.id),
                        in: "\(document)'s plugin table")
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

    static func expectSame(documented: [String], code: [String], in table: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let missing = code.filter { !documented.contains($0) }, extra = documented.filter { !code.contains($0) }
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
        return ["\(number(device.screen.width)) × \(number(device.screen.height)) @\(device.scale)x", "\(device.refreshRate) Hz",
                "\(number(device.portrait.keyboardHeight)) / \(number(device.landscape.keyboardHeight))",
                "\(insets(.portrait)) / \(insets(.landscapeLeft))"]
    }
}

extension SimulatorMethod {
    /// The method as docs/dbus.md writes it: `Inject(s name, a{sv} fields) -> (t sequence)`.
    var documented: String {
        func arguments(_ list: [Argument]) -> String { list.map { "\($0.type) \($0.name)" }.joined(separator: ", ") }
        return "\(rawValue)(\(arguments(inputs)))" + (outputs.isEmpty ? "" : " -> (\(arguments(outputs)))")
    }
}
