import Foundation
import IntegrationTestSupport
import RehearseCore
import Testing

@testable import RehearseDBusInterface

/// The Python package in `clients/python`: its own tests (the client against a real `rehearse
/// serve`, the plugin side against a host of their own, the values both share), its type check,
/// and pip installing it as a user would, type information included.
@Suite struct PythonPackageTests {
    static let folder = Rehearse.packageRoot.appendingPathComponent("clients/python")

    /// All of them pass, and all ran: none skipped for want of the tool or a C compiler.
    @Test func itsTestsPass() throws {
        let result = try RemotePluginClientTests.unittest("clients/python/tests")
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.hasSuffix("\nOK\n"), "\(result.errorOutput)")
    }

    /// `mypy --strict` (its settings in `pyproject.toml`) finds nothing in the package.
    @Test func itsTypesCheckStrictly() throws {
        let result = try Rehearse.python(["-m", "mypy", "--strict"], in: Self.folder)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.hasPrefix("Success: no issues found"), "\(result.output)")
    }

    /// `pip install` takes the folder as it is: the package, its modules and the `py.typed`
    /// marker that tells type checkers it is typed land where an import finds them.
    @Test func pipInstallsItWithItsTypeInformation() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-pip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A copy, as a downloaded source would be: a build writes its leftovers beside the sources.
        let source = scratch.appendingPathComponent("source")
        let target = scratch.appendingPathComponent("installed")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.folder, to: source)
        let install = try Rehearse.python(
            [
                "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--no-build-isolation", "--target", target.path, source.path,
            ], in: scratch)
        #expect(install.status == 0, "\(install.errorOutput)")
        let installed = target.appendingPathComponent("rehearse")
        for file in ["__init__.py", "client.py", "plugin.py", "values.py", "event.py", "touches.py", "py.typed"] {
            #expect(FileManager.default.fileExists(atPath: installed.appendingPathComponent(file).path), "\(file) not installed")
        }
        let imported = try Rehearse.python(
            [
                "-c",
                "import sys; sys.path.insert(0, sys.argv[1]); import rehearse, rehearse.plugin; "
                    + "print(rehearse.__file__.startswith(sys.argv[1]), rehearse.plugin.Plugin.__name__)", target.path,
            ],
            in: scratch)
        #expect(imported.output == "True Plugin\n", "\(imported.errorOutput)")
    }

    /// What the package repeats of the code is the code's: the gesture steps' swipe duration and
    /// pinch span (`rehearse.touches`), and the curves an `animate` effect may name
    /// (`rehearse.plugin.CURVES`, read by the host as `NamedCurve`). A difference names the file
    /// to change. (Once, CURVES lacked `default`, which the host takes.)
    @Test func itsConstantsAreTheCodes() throws {
        let script = """
            import json, sys; sys.path.insert(0, sys.argv[1])
            from rehearse import plugin, touches
            print(json.dumps([touches.SWIPE_DURATION, touches.PINCH_SPAN, list(plugin.CURVES)]))
            """
        let result = try Rehearse.python(["-c", script, Self.folder.path])
        let values = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [Any], "\(result.errorOutput)")
        #expect(
            values[0] as? Double == TouchStream.swipeStepDuration.seconds, "clients/python/rehearse/touches.py: SWIPE_DURATION")
        #expect(values[1] as? Double == TouchStream.pinchSpan, "clients/python/rehearse/touches.py: PINCH_SPAN")
        #expect(values[2] as? [String] == NamedCurve.allCases.map(\.rawValue), "clients/python/rehearse/plugin.py: CURVES")
    }

    /// `rehearse.errors` names every error the service and the plugin host reply with
    /// (`SimulatorError`), each by its case's name in capitals, and nothing else.
    @Test func itsErrorNamesAreTheServices() throws {
        let script = """
            import json, sys; sys.path.insert(0, sys.argv[1])
            from rehearse import errors
            print(json.dumps({name: value for name, value in vars(errors).items() if name.isupper()}))
            """
        let result = try Rehearse.python(["-c", script, Self.folder.path])
        let names = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String], "\(result.errorOutput)")
        let expected = Dictionary(
            uniqueKeysWithValues: SimulatorError.allCases.map { error in
                (
                    String(describing: error).replacing(/([a-z])([A-Z])/) { "\($0.output.1)_\($0.output.2)" }.uppercased(),
                    error.rawValue
                )
            })
        #expect(names == expected, "clients/python/rehearse/errors.py")
    }
}
