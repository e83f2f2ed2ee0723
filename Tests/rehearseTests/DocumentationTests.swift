import Foundation
import IntegrationTestSupport
import RehearseCore
import Testing

/// Runs the examples of `docs/dbus.md` against `rehearse serve --mode manual --plugins
/// login-animator` on a private bus: each `$` line of a `sh` block must print exactly the lines
/// under it, and each `python` block the `text` block after it.
@Suite struct DocumentationTests {
    /// docs/plugins.md's payload table is every built-in event, in the bus's order, with the
    /// payload type it carries and its fields, as `BuiltinEvent` declares them.
    @Test func thePluginGuidesPayloadTableIsTheCodes() throws {
        let guide = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent("docs/plugins.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "| event | payload | fields |\n|---|---|---|\n"))
        let rows = guide[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("|") }.map(String.init)
        let expected = BuiltinEvent.allCases.map { event in
            "| `\(event.name)` | `\(event.payloadType)` | \(event.fieldSummary.replacingOccurrences(of: "|", with: "\\|")) |"
        }
        #expect(rows == expected, "expected:\n\(expected.joined(separator: "\n"))")
    }

    /// CONTRIBUTING.md's map names every subcommand `rehearse --help` lists, in its order.
    @Test func theCodeMapListsEverySubcommand() throws {
        let help = try Rehearse.run(["--help"]).output
        let listed =
            help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n")
            .compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                    name.allSatisfy({ $0.isLowercase || $0 == "-" })
                else { return nil }
                return String(name)
            } ?? []
        #expect(listed.count >= 13)
        let map = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        #expect(map.contains("(" + listed.map { "`\($0)`" }.joined(separator: ", ") + ";"), "\(listed)")
    }

    @Test func theDBusGuidesExamplesPrintWhatItSays() throws {
        let guide = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent("docs/dbus.md"), encoding: .utf8)
        let blocks = CodeBlocks(guide).blocks
        let bus = try PrivateBus()
        try bus.serve(["--mode", "manual", "--plugins", "login-animator"])
        var checked = 0
        for (index, block) in blocks.enumerated() {
            switch block.language {
            case "sh":
                for (command, expected) in Self.commands(in: block.lines) {
                    let result = try bus.run("/bin/bash", ["-c", command])
                    #expect(Self.trimmed(result.output) == expected.joined(separator: "\n"), "\(command)\n\(result.errorOutput)")
                    checked += 1
                }
            case "python":
                let expected = index + 1 < blocks.count && blocks[index + 1].language == "text" ? blocks[index + 1].lines : []
                let script = bus.folder.appendingPathComponent("example\(index).py")
                try Data(block.lines.joined(separator: "\n").utf8).write(to: script)
                let result = try bus.run("/usr/bin/env", ["python3", script.path])
                #expect(
                    Self.maskingSessionIDs(Self.trimmed(result.output))
                        == Self.maskingSessionIDs(expected.joined(separator: "\n")),
                    "\(result.output)\(result.errorOutput)")
                checked += 1
            default:
                break
            }
        }
        #expect(checked >= 8)
    }

    /// The README's D-Bus lines as a user pastes them, each block on a fresh private bus, with
    /// `swift run rehearse` standing for the built binary: activation answers the first call, and
    /// the readiness wait ends once a call is answered.
    @Test func theReadmesDBusLinesWorkAsWritten() throws {
        let readme = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(
            readme.components(separatedBy: "## Driving it over D-Bus").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        let blocks = CodeBlocks(section).blocks.filter { $0.language == "sh" }.map { block in
            block.lines.joined(separator: "\n").replacingOccurrences(
                of: "swift run rehearse", with: Rehearse.productsFolder.appendingPathComponent("rehearse").path)
        }
        try #require(blocks.count == 2)
        let activating = try PrivateBus()
        let activated = try activating.run("/bin/bash", ["-c", "cd '\(activating.folder.path)'\n" + blocks[0]])
        #expect(activated.output.hasSuffix("\n(uint64 1,)\n"), "\(activated.output)\(activated.errorOutput)")
        let waiting = try PrivateBus()
        let tap =
            #"gdbus call --session --dest org.rehearse.Simulator --object-path /org/rehearse/Simulator --method org.rehearse.Simulator1.Inject tap "{'target': <'username'>}""#
        let waited = try waiting.run("/bin/bash", ["-c", "cd '\(waiting.folder.path)'\n" + blocks[1] + "\n\(tap)\nkill $!"])
        #expect(waited.output == "(uint64 1,)\n", "\(waited.errorOutput)")
        #expect(waiting.contents(of: "serve.out").hasPrefix("ready: org.rehearse.Simulator on \(waiting.address) (manual clock)"))
    }

    /// Nothing in the repository refers to a file outside it: no file of the repository (tracked,
    /// or new and not ignored) names the design notes, D-Bus notes, seed code or shared folder that
    /// were never part of it, and every relative link of its Markdown files leads to one of its
    /// files or folders. (The names are built here so that this file does not hold them.)
    @Test func nothingRefersOutsideTheRepository() throws {
        let outside = [
            ["DESIGN", "md"].joined(separator: "."), ["dbus", "notes"].joined(separator: "-"),
            ["seed", "code"].joined(separator: "-"), ["..", "shared"].joined(separator: "/"),
        ]
        let files = try Self.repositoryFiles()
        #expect(files.contains("Package.swift") && files.contains("docs/ARCHITECTURE.md"))
        var inside = Set(files)
        for file in files {
            var folder = (file as NSString).deletingLastPathComponent
            while !folder.isEmpty, inside.insert(folder).inserted { folder = (folder as NSString).deletingLastPathComponent }
        }
        var found: [String] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: Rehearse.packageRoot.appendingPathComponent(file).path),
                let text = String(data: data, encoding: .utf8)
            else { continue }  // removed, or not text
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let names = outside.filter { line.contains($0) }
                let links =
                    file.hasSuffix(".md")
                    ? Self.relativeLinks(in: line).filter { !inside.contains(Self.target(of: $0, in: file)) } : []
                found += (names + links).map { "\(file):\(index + 1): \($0)" }
            }
        }
        #expect(found.isEmpty, "references to what is not in the repository:\n\(found.joined(separator: "\n"))")
    }

    /// The repository's files, as `git ls-files` lists them: tracked, and new ones not ignored.
    private static func repositoryFiles() throws -> [String] {
        let listed = try Rehearse.launch(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        try #require(listed.status == 0, "git ls-files: \(listed.errorOutput)")
        return listed.output.split(separator: "\0").map(String.init)
    }

    /// The targets of the Markdown links in `line` that are not URLs nor anchors (`](docs/x.md#part)`).
    private static func relativeLinks(in line: Substring) -> [String] {
        line.matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
            .filter { !$0.hasPrefix("#") && $0.firstMatch(of: /^[a-z][a-z0-9+.-]*:/) == nil }
    }

    /// Where `link`, in the repository's `file`, leads, relative to the repository's root (a path
    /// starting with `..` when it leaves it).
    private static func target(of link: String, in file: String) -> String {
        let root = Rehearse.packageRoot.standardizedFileURL.path
        let folder = Rehearse.packageRoot.appendingPathComponent(file).deletingLastPathComponent()
        let path = URL(fileURLWithPath: String(link.prefix { $0 != "#" }), relativeTo: folder).standardizedFileURL.path
        guard path.hasPrefix(root + "/") else { return "../" + path }
        return String(path.dropFirst(root.count + 1))
    }

    /// `text` with each session's random ID (32 hexadecimal digits) as `ID`: the guide shows one.
    private static func maskingSessionIDs(_ text: String) -> String {
        text.replacing(/sessions\/[0-9a-f]{32}/, with: "sessions/ID")
    }

    /// Output without its final line break (dbus-send leaves some off).
    private static func trimmed(_ output: String) -> String {
        var text = output
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// `$ command` lines with the lines printed under each; lines before the first `$` are not run.
    private static func commands(in lines: [String]) -> [(command: String, expected: [String])] {
        var result: [(command: String, expected: [String])] = []
        for line in lines {
            if line.hasPrefix("$ ") {
                result.append((String(line.dropFirst(2)), []))
            } else if !result.isEmpty {
                result[result.count - 1].expected.append(line)
            }
        }
        return result
    }
}

/// The fenced code blocks of a Markdown text, with their languages.
struct CodeBlocks {
    var blocks: [(language: String, lines: [String])] = []

    init(_ markdown: String) {
        var current: (language: String, lines: [String])?
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else {
                current?.lines.append(line)
            }
        }
    }
}
