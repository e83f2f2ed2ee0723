import Foundation
import IntegrationTestSupport
import Testing

/// The password form, its picture with `tolerance` if given.
private func form(usernameY: Double = 260, label: String = "Sign in", tolerance: String = "") -> String {
    passwordForm(
        usernameY: usernameY, label: label, picture: tolerance.isEmpty ? "typed" : "{name: typed, tolerance: \(tolerance)}")
}

/// A scenario file recorded with `--update-pictures`, then rewritten as `changed` (the reference stays).
private func recorded(then changed: String) throws -> URL {
    let file = try Rehearse.scenario(form(), named: "form.yaml")
    let record = try Rehearse.run(["run", "--update-pictures", file.path])
    #expect(record.status == 0, "\(record.output)")
    #expect(record.errorOutput.contains("picture 'typed' recorded at"), "\(record.errorOutput)")
    try Data(changed.utf8).write(to: file)
    return file
}

/// Issue 27: `expect-picture` compares the drawing with a golden picture beside the scenario.
@Suite struct GoldenPictureTests {
    @Test func aMissingReferenceFailsSayingHowToRecordIt() throws {
        let file = try Rehearse.scenario(form(), named: "form.yaml")
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains("picture 'typed'"))
        #expect(
            result.output.contains(
                "no reference recorded at __pictures__/form/typed.json (beside the scenario); "
                    + "record it with rehearse run --update-pictures \(file.path)"))
    }

    /// Issue 36: the command is one a shell runs as it is, whatever the file's path holds (the
    /// file's folder: its name is plain).
    @Test func theCommandThatRecordsAPictureQuotesThePathForTheShell() throws {
        let folder = try Rehearse.scenario(form(), named: "form.yaml").deletingLastPathComponent().appendingPathComponent(
            "it's $HOME")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let file = folder.appendingPathComponent("form.yaml")
        try Data(form().utf8).write(to: file)
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        let command = "rehearse run --update-pictures '\(file.path.replacingOccurrences(of: "'", with: #"'\''"#))'"
        #expect(result.output.contains("record it with \(command)"), "\(result.output)")
        let shell = try Rehearse.launch(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "printf %s " + command.dropFirst("rehearse run --update-pictures ".count)])
        #expect(shell.output == file.path)
    }

    @Test func anUnchangedRunPassesAndTheReferenceHoldsNoSecret() throws {
        let file = try recorded(then: form())
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 0, "\(result.output)")
        let folder = file.deletingLastPathComponent().appendingPathComponent("__pictures__/form")
        for name in ["typed.json", "typed.svg"] {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("hunter2"), "\(name) holds the typed password")
            #expect(text.contains("••••••••••••••"), "\(name) draws the secure text as dots")
        }
    }

    @Test func aTenthOfAPointIsWithinTheDefaultTolerance() throws {
        let file = try recorded(then: form(usernameY: 260.1))
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aFivePointMoveFailsNamingTheNodeAndItsFrames() throws {
        let file = try recorded(then: form(usernameY: 265))
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains("expected: the drawing of __pictures__/form/typed.json"))
        #expect(
            result.output.contains("username: frame [20, 260, 280, 30] in the reference, [20, 265, 280, 30] now (beyond 0.5 pt)"))
        // With --render, the diff picture outlines the moved field where it was and where it is, and nothing else.
        let render = file.deletingLastPathComponent().appendingPathComponent("out")
        _ = try Rehearse.run(["run", "--render", render.path, file.path], in: file.deletingLastPathComponent())
        let diff = try String(contentsOf: render.appendingPathComponent("form/picture-typed-diff.svg"), encoding: .utf8)
        #expect(diff.components(separatedBy: #"data-diff-id="username""#).count - 1 == 2)
        #expect(diff.components(separatedBy: "data-diff-id=").count - 1 == 2)
        // A step's tolerance, or the run's, lets it pass.
        try Data(form(usernameY: 265, tolerance: "5").utf8).write(to: file)
        #expect(try Rehearse.run(["run", file.path]).status == 0)
        try Data(form(usernameY: 265).utf8).write(to: file)
        #expect(try Rehearse.run(["run", "--picture-tolerance", "5", file.path]).status == 0)
    }

    @Test func aChangedLabelFailsAndUpdatingRecordsIt() throws {
        let file = try recorded(then: form(label: "Log in"))
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains(#"title: text "Sign in" in the reference, "Log in" now"#))
        let update = try Rehearse.run(["run", "--update-pictures", file.path])
        #expect(update.status == 0)
        #expect(update.errorOutput.contains(#"picture 'typed' updated at"#) && update.errorOutput.contains(#""Log in" now"#))
        #expect(try Rehearse.run(["run", file.path]).status == 0)
    }

    @Test func validateReportsAReferenceNoStepUses() throws {
        let file = try recorded(then: form().replacingOccurrences(of: "expect-picture: typed", with: "expect-picture: other"))
        let result = try Rehearse.run(["validate", file.path])
        #expect(result.status == 0)
        #expect(result.output.contains("warning: \(file.path): the golden picture __pictures__/form/typed.json is stale"))
    }

    /// A link planted inside the scenario's folder is never written through (CONTRIBUTING.md,
    /// "Security rules", files and paths).
    @Test func updatingNeverFollowsALinkInsideThePicturesFolder() throws {
        let file = try Rehearse.scenario(form(), named: "form.yaml")
        let folder = file.deletingLastPathComponent()
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("__pictures__"), withDestinationURL: outside)
        let result = try Rehearse.run(["run", "--update-pictures", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains("is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func aToleranceOutsideItsLimitsIsRefused() throws {
        let file = try Rehearse.scenario(form(tolerance: "-1"), named: "form.yaml")
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 2)
        #expect(result.output.contains("form.yaml:11:46: error: tolerance must be at least 0, found -1"))
        #expect(try Rehearse.run(["run", "--picture-tolerance", "nan", file.path]).status == 2)
    }

    /// Many steps naming one large reference (a cloned repository's) cannot take memory without
    /// bound: a run reads at most `PictureReferences.maximumBytesPerRun` (32 MiB) of references.
    @Test(arguments: [(8, Int32(1)), (9, Int32(2))])
    func aRunReadsABoundedAmountOfReferences(steps: Int, status: Int32) throws {
        let pictures = String(repeating: "  - expect-picture: large\n", count: steps)
        let file = try Rehearse.scenario(
            form().replacingOccurrences(of: "  - expect-picture: typed", with: pictures), named: "form.yaml")
        let folder = file.deletingLastPathComponent().appendingPathComponent("__pictures__/form")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let head =
            #"{"screen": [320, 568], "statusBar": 20, "elements": [{"alpha": 1, "focused": false, "frame": [0, 0, 1, 1], "#
            + #""id": "title", "kind": "label", "text": ""#
        let tail = #""}]}"#
        let text = String(repeating: "x", count: (4 << 20) - head.utf8.count - tail.utf8.count)
        try Data((head + text + tail).utf8).write(to: folder.appendingPathComponent("large.json"))
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == status)
        let stopped = result.output.contains("the golden pictures of this run would read more than 32 MiB of references")
        #expect(stopped == (status == 2), "\(result.output.prefix(2_000))")
    }

    /// A reference whose frame holds millions of numbers was taken, echoed whole into the failure
    /// (8 MB of message from one step) and left out of the diff picture: it is refused as malformed.
    @Test func aFrameOfAnotherLengthIsRefused() throws {
        let file = try Rehearse.scenario(form(), named: "form.yaml")
        let folder = file.deletingLastPathComponent().appendingPathComponent("__pictures__/form")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let frame = Array(repeating: "7", count: 1_000).joined(separator: ", ")
        let json =
            #"{"screen": [320, 568], "statusBar": 20, "elements": [{"alpha": 1, "focused": false, "frame": [\#(frame)], "#
            + #""id": "title", "kind": "label", "text": "Sign in"}]}"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("typed.json"))
        let result = try Rehearse.run(["run", file.path])
        #expect(result.status == 1)
        #expect(
            result.output.contains("typed.json is not a drawing")
                && result.output.contains("elements[0].frame holds 1000 numbers, not 4"),
            "\(result.output.prefix(2_000))")
        #expect(!result.output.contains("7, 7"))
    }

    /// `validate` listed the references through a link planted as the scenario's pictures folder,
    /// printing the names of files in any folder the link led to; it lists nothing through a link.
    @Test func validateNeverListsThroughALink() throws {
        let file = try Rehearse.scenario(form(), named: "form.yaml")
        let folder = file.deletingLastPathComponent()
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: outside.appendingPathComponent("private-name.json"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("__pictures__"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("__pictures__/form"), withDestinationURL: outside)
        let result = try Rehearse.run(["validate", file.path])
        #expect(result.status == 0)
        #expect(!result.output.contains("private-name"), "\(result.output)")
    }
}
