import Foundation

/// Runs the built `rehearse` binary and captures what it printed.
package struct CommandResult {
    package var status: Int32
    package var output: String
    package var errorOutput: String
}

package enum Rehearse {
    /// The folder the test binary was built into; `rehearse` is built next to it.
    package static let productsFolder = URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
    ).deletingLastPathComponent()
    /// The package's root folder.
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `rehearse` with `arguments`, killed after 60 s: a host that hangs fails the test (status 124)
    /// instead of hanging it.
    package static func runWithin(_ arguments: [String]) throws -> CommandResult {
        try launch(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["-k", "5", "60", productsFolder.appendingPathComponent("rehearse").path] + arguments)
    }

    package static func run(_ arguments: [String], in folder: URL = packageRoot) throws -> CommandResult {
        try launch(productsFolder.appendingPathComponent("rehearse"), arguments, in: folder)
    }

    /// Runs the `python3` on the PATH, the one `scripts/install-deps` installs every Python
    /// package the tests use for (jeepney, Selenium, jsonschema, PyYAML, mypy).
    package static func python(_ arguments: [String], in folder: URL = packageRoot) throws -> CommandResult {
        try launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: folder)
    }

    package static func launch(
        _ executable: URL, _ arguments: [String], in folder: URL = packageRoot,
        environment base: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = base
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData, as: UTF8.self))
    }

    /// What xmllint says of `xml` (written to `name` beside `file`) against the JUnit schema the
    /// CI systems read (`junit.xsd`): nil when it is valid.
    package static func junitProblems(_ xml: String, besides file: URL, named name: String) throws -> String? {
        let written = file.deletingLastPathComponent().appendingPathComponent(name)
        try Data(xml.utf8).write(to: written)
        let schema = packageRoot.appendingPathComponent("Tests/rehearseTests/junit.xsd")
        let check = try launch(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", "--schema", schema.path, written.path])
        return check.status == 0 ? nil : check.errorOutput
    }

    /// A scenario file in a fresh temporary folder.
    package static func scenario(_ text: String, named name: String = "scenario.yaml") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }
}
