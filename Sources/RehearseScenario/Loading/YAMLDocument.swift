import Foundation
import RehearseCore
import Yams

/// Turns the bytes of a scenario file into a YAML tree, refusing what could hurt the loader:
/// files over ``ScenarioLimits/fileBytes``, text that is not UTF-8, nesting deeper than 64 levels, more than one document,
/// and aliases that expand the tree past a budget (an alias bomb). A UTF-8 byte-order mark is skipped.
enum YAMLDocument {
    /// The refusal of a file too large: "file `size`; scenario files are limited to ...".
    static func sizeMessage(_ size: String) -> String {
        "file \(size); scenario files are limited to \(ScenarioLimits.fileBytes) bytes (1 MiB)"
    }

    static func parse(_ data: Data, file: String) throws(ScenarioError) -> YAMLValue {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard data.count <= ScenarioLimits.fileBytes else {
            throw ScenarioError(sizeMessage("is \(data.count) bytes"), at: start)
        }
        guard var text = String(validating: data, as: UTF8.self) else {
            throw ScenarioError("file is not UTF-8 text", at: location(ofFirstInvalidByteIn: data, file: file))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        try checkLineBreaks(text, file: file)
        try checkDepth(text, file: file)
        let root: Yams.Node?
        do {
            var documents = try Yams.compose_all(yaml: text, YAMLCoreSchema.resolver).makeIterator()
            root = documents.next()
            if let error = documents.error { throw error }
            if documents.next() != nil {
                throw ScenarioError("a scenario file holds one YAML document; found a second", at: start)
            }
            if let error = documents.error { throw error }
        } catch let error as ScenarioError {
            throw error
        } catch let error as YamlError {
            throw scenarioError(error, file: file)
        } catch {
            throw ScenarioError("YAML: \(error)", at: start)
        }
        guard let root else {
            throw ScenarioError(
                "file is empty; expected a mapping with name, steps and optionally device, scene, plugins", at: start)
        }
        try checkExpansion(root, file: file)
        return YAMLValue(node: root, file: file)
    }

    /// Walks the tree as reading it will, every alias expanded (Yams gives an alias the node it
    /// names), without recursion and stopping at the first limit: the nodes, the scalar bytes and
    /// the depth. The text-based depth check cannot see aliases nested in aliases.
    private static func checkExpansion(_ root: Yams.Node, file: String) throws(ScenarioError) {
        func at(_ node: Yams.Node) -> SourceLocation {
            SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        }
        var nodes = 0
        var bytes = 0
        var stack: [(node: Yams.Node, depth: Int)] = [(root, 0)]
        while let (node, depth) = stack.popLast() {
            nodes += 1
            if nodes > ScenarioLimits.expandedNodes {
                throw ScenarioError(
                    "with its aliases expanded the file has more than \(ScenarioLimits.expandedNodes) nodes "
                        + "(the limit); write the values out, or use fewer aliases", at: at(node))
            }
            if depth > ScenarioLimits.nestingDepth {
                throw ScenarioError(
                    "with its aliases expanded, nesting is deeper than \(ScenarioLimits.nestingDepth) levels", at: at(node))
            }
            switch node {
            case .scalar(let scalar):
                bytes += scalar.string.utf8.count
                if bytes > ScenarioLimits.expandedTextBytes {
                    throw ScenarioError(
                        "with its aliases expanded the file holds more than \(ScenarioLimits.expandedTextBytes) bytes "
                            + "of text (the limit)", at: at(node))
                }
            case .sequence(let sequence):
                stack.append(contentsOf: sequence.map { ($0, depth + 1) })
            case .mapping(let mapping):
                for (key, value) in mapping { stack.append(contentsOf: [(key, depth + 1), (value, depth + 1)]) }
            case .alias:
                continue
            }
        }
    }

    private static func scenarioError(_ error: YamlError, file: String) -> ScenarioError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        func describe(_ context: YamlError.Context?, _ problem: String) -> String {
            guard let context else { return "YAML: \(problem)" }
            return "YAML: \(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return ScenarioError(describe(context, problem), at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioError(
                "duplicate key '\(duplicates.joined(separator: "', '"))' in the mapping that starts here",
                at: at(context.mark))
        case .reader(let problem, let offset, _, let yaml):
            return ScenarioError("YAML: \(problem)", at: location(ofByte: offset ?? 0, in: yaml, file: file))
        default:
            return ScenarioError("YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// Refuses flow nesting (`[[[...`) and indentation deeper than ``ScenarioLimits/nestingDepth``, which would
    /// otherwise recurse without bound while the tree is built.
    private static func checkDepth(_ text: String, file: String) throws(ScenarioError) {
        var depth = 0
        var line = 1
        var column = 0
        var indentation = 0
        var atLineStart = true
        var quote: Character?
        var inComment = false
        var escaped = false
        for character in text {
            column += 1
            if character == "\n" {
                (line, column, indentation, atLineStart, inComment) = (line + 1, 0, 0, true, false)
                continue
            }
            if atLineStart {
                if character == " " {
                    indentation += 1
                    if indentation / 2 > ScenarioLimits.nestingDepth {
                        throw ScenarioError(
                            "nesting is deeper than \(ScenarioLimits.nestingDepth) levels",
                            at: SourceLocation(file: file, line: line, column: column))
                    }
                    continue
                }
                atLineStart = false
            }
            if inComment { continue }
            if let open = quote {
                // In a double-quoted string a backslash escapes the next character (`\"`); a
                // single-quoted one doubles its quote (`''`), which closes and reopens it here.
                if escaped {
                    escaped = false
                } else if open == "\"" && character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case "#": inComment = true
            case "[", "{":
                depth += 1
                if depth > ScenarioLimits.nestingDepth {
                    throw ScenarioError(
                        "nesting is deeper than \(ScenarioLimits.nestingDepth) levels",
                        at: SourceLocation(file: file, line: line, column: column))
                }
            case "]", "}": depth = max(0, depth - 1)
            default: break
            }
        }
    }

    /// Refuses U+0085, U+2028 and U+2029 written as they are: this reader (libyaml, YAML 1.1)
    /// breaks lines at them and YAML 1.2 does not, so a key or value holding one would be read
    /// otherwise than an editor's YAML 1.2 reader and the JSON Schema read it. Escaped in a
    /// double-quoted string (`"\u2028"`) they are text, as everywhere.
    private static func checkLineBreaks(_ text: String, file: String) throws(ScenarioError) {
        let breaks: Set<Unicode.Scalar> = ["\u{85}", "\u{2028}", "\u{2029}"]
        guard let index = text.unicodeScalars.firstIndex(where: breaks.contains) else { return }
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: index)
        let name = String(format: "U+%04X", text.unicodeScalars[index].value)
        throw ScenarioError(
            "\(name) is a line break to this reader (YAML 1.1) and text to YAML 1.2: write it escaped in a "
                + "double-quoted string (\"\\u\(name.dropFirst(2))\") or leave it out",
            at: location(ofByte: offset, in: text, file: file))
    }

    /// The line and column of the byte at `offset` of `text`'s UTF-8.
    private static func location(ofByte offset: Int, in text: String, file: String) -> SourceLocation {
        var line = 1
        var column = 1
        for scalar in String(decoding: text.utf8.prefix(max(offset, 0)), as: UTF8.self).unicodeScalars {
            if scalar == "\n" { (line, column) = (line + 1, 1) } else { column += 1 }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    private static func location(ofFirstInvalidByteIn data: Data, file: String) -> SourceLocation {
        var line = 1
        var column = 1
        var index = data.startIndex
        while index < data.endIndex {
            let length = validSequenceLength(data, at: index)
            guard length > 0 else { break }
            if data[index] == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
            index += length
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 if it is not valid.
    private static func validSequenceLength(_ data: Data, at index: Data.Index) -> Int {
        let lead = data[index]
        let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
        guard length > 0, index + length <= data.endIndex else { return 0 }
        let sequence = data[index..<index + length]
        return String(validating: sequence, as: UTF8.self) == nil ? 0 : length
    }
}
