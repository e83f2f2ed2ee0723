import ArgumentParser
import Foundation
import RehearseCore
import RehearseScenario

/// One file's trace for `run --trace`, written line by line as the run delivers it into a file of
/// a private temporary folder, then copied into the trace file in the files' order: a run's memory
/// does not grow with its trace, parallel runs' traces never interleave, and only running jobs
/// hold a file open. When several files run, each line is tagged with its file
/// (`{"scenario": FILE, ...}`).
final class TraceSpool: @unchecked Sendable {
    // Unchecked: a spool is written by its one run's job only, and read after that job ended.
    private let path: String
    private let tag: String?
    private var file: UnsafeMutablePointer<FILE>?
    private var failed = false

    /// A spool for the file at `index` of a run, in `folder`; `scenario` tags its lines.
    init(folder: TemporaryFolder, index: Int, scenario: String?) {
        path = folder.path + "/\(index).jsonl"
        tag = scenario.map { #"{"scenario":\#(FieldValue.string($0).jsonText),"# }
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends one trace line (a JSON object).
    func append(_ line: String) {
        if file == nil, !failed {
            file = fopen(path, "w")
            failed = file == nil
        }
        guard let file else { return }
        if let tag {
            fputs(tag, file)
            fputs(String(line.dropFirst()), file)
        } else {
            fputs(line, file)
        }
        if fputc(0x0A, file) == EOF { failed = true }
    }

    /// Ends the writing (the run is over).
    func finish() {
        if let file, fclose(file) != 0 { failed = true }
        file = nil
    }

    /// Copies everything appended to `output`, a chunk at a time.
    func copy(to output: OutputFile) throws {
        guard !failed else { throw ValidationError("--trace: cannot write the temporary file \(path)") }
        guard let input = fopen(path, "r") else { return }  // the run delivered nothing
        defer { fclose(input) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, input) }
            if count == 0 { break }
            try output.write(Data(chunk[..<count]))
        }
        guard ferror(input) == 0 else { throw ValidationError("--trace: cannot read the temporary file \(path) back") }
    }
}

/// A private folder under the system's temporary folder, removed with everything in it when the
/// value goes away.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/rehearse-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!).map { String(cString: $0) } }) else {
            throw ValidationError("cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        path = made
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
