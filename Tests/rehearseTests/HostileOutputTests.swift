import Foundation
import IntegrationTestSupport
import Testing

/// Where the command line writes: never into an input under another name, never through a
/// symbolic link planted inside an output folder, never over a file it did not write unless told.
@Suite struct HostileOutputTests {
    /// A scenario file, a hard link to it and a symbolic link to it, in a fresh folder.
    private func scenarioWithLinks() throws -> (file: URL, hardLink: URL, symbolicLink: URL, text: String) {
        let text = "name: keep me\nsteps:\n  - snapshot: start\n"
        let file = try Rehearse.scenario(text)
        let hardLink = file.deletingLastPathComponent().appendingPathComponent("hard-link.yaml")
        let symbolicLink = file.deletingLastPathComponent().appendingPathComponent("symbolic-link.yaml")
        try FileManager.default.linkItem(at: file, to: hardLink)
        try FileManager.default.createSymbolicLink(at: symbolicLink, withDestinationURL: file)
        return (file, hardLink, symbolicLink, text)
    }

    @Test func outputsAimedAtAHardOrSymbolicLinkOfTheScenarioAreRefused() throws {
        let (file, hardLink, symbolicLink, text) = try scenarioWithLinks()
        for link in [hardLink, symbolicLink] {
            let trace = try Rehearse.run(["run", "--trace", link.path, file.path])
            #expect(trace.status == 2, "\(link.lastPathComponent): \(trace.errorOutput)")
            #expect(trace.errorOutput.contains("--trace \(link.path) is a scenario file this run reads"))
            let render = try Rehearse.run(["render", file.path, "--at", "0", "-o", link.path])
            #expect(render.status == 2, "\(link.lastPathComponent): \(render.errorOutput)")
            #expect(render.errorOutput.contains("--output \(link.path) is a scenario file this run reads"))
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
        // An ordinary output beside it is written.
        let output = file.deletingLastPathComponent().appendingPathComponent("picture.svg")
        let rendered = try Rehearse.run(["render", file.path, "--at", "0", "-o", output.path])
        #expect(rendered.status == 0)
        #expect(rendered.output == "wrote \(output.path): \(file.path) at 0 s\n", "it says what it wrote (issue 25)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("<svg"))
    }

    /// A symbolic link planted in the render folder as a picture is replaced by the picture, its
    /// target untouched; one planted as the scenario's subfolder is refused.
    @Test func linksPlantedInTheRenderFolderAreNeverFollowed() throws {
        let (file, _, _, _) = try scenarioWithLinks()
        let folder = file.deletingLastPathComponent()
        let outside = folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim.svg")
        try Data("precious\n".utf8).write(to: victim)

        let pictures = folder.appendingPathComponent("out/scenario")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let planted = pictures.appendingPathComponent("snapshot-start.svg")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: victim)
        let run = try Rehearse.run(["run", "--render", "out", "scenario.yaml"], in: folder)
        #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLinkIfAny(planted) == nil, "the link is replaced by the picture")
        #expect(try String(contentsOf: planted, encoding: .utf8).contains("<svg"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("out"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: pictures, withDestinationURL: outside)
        let linked = try Rehearse.run(["run", "--render", "out", "scenario.yaml"], in: folder)
        #expect(linked.status == 2, "\(linked.output)")
        #expect(
            linked.errorOutput.contains("out/scenario is a symbolic link; rehearse never follows a link inside an output folder"),
            "\(linked.errorOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim.svg"])
    }
}

extension FileManager {
    /// Where the symbolic link at `url` points, or nil when `url` is not a symbolic link.
    func destinationOfSymbolicLinkIfAny(_ url: URL) throws -> String? {
        let type = try attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
        return type == .typeSymbolicLink ? try destinationOfSymbolicLink(atPath: url.path) : nil
    }
}
