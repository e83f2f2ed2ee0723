import ArgumentParser
import Foundation
import RehearseAccessibility
import RehearseScenario

/// `--atspi`: the simulated screen on the accessibility bus too; shared by `serve` and `view`.
struct AccessibilityOptions: ParsableArguments {
    @Flag(
        help:
            "Also show the simulated screen on the accessibility bus (AT-SPI2) as an application named after the scenario, for screen readers, inspectors and pyatspi or dogtail scripts (docs/atspi.md)."
    )
    var atspi = false

    /// The export of `scenario`'s screen with `--atspi` (nil without); exits 2 with what is
    /// missing when there is no accessibility bus or registry.
    func start(for scenario: Scenario, readOnly: Bool, command: String) throws -> AccessibilityExport? {
        guard atspi else { return nil }
        do {
            return try AccessibilityExport(title: scenario.name, version: RehearseCommand.version, readOnly: readOnly)
        } catch {
            FileHandle.standardError.write(Data("rehearse \(command): --atspi: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
