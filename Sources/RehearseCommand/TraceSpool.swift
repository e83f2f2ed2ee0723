import ArgumentParser
import Foundation
import RehearseCore
import RehearseScenario

/// One file's trace for `run --trace`, written line by line as the run delivers it into a file of
/// a private temporary folder, then copied into the trace file in the files' order: a run's memory
/// does not grow with its trace, parallel runs' traces never interleave, and only running jobs
/// hold a file open. When several files run, each line is tagged with its file
/// (`{"scenario": FILE, ...}`).
final class TraceSpool: Sendable {
    private let path: String
    private let tag: String?
    /// Written by the job that runs the file, read by the command once the job ended: each
    /// claims it first (``claim()``), and the program stops on any other use.
    private let writer: ThreadBound<Writer>

    private final class Writer {
        var file: UnsafeMutablePointer<FILE>?
        var failed = false

        deinit {
            if let file { fclose(file) }
        }
    }

    /// A spool for the file at `index` of a run, in `folder`; `scenario` tags its lines.
    init(folder: TemporaryFolder, index: Int, scenario: String?) {
        path = folder.path + "/\(index).jsonl"
        tag = scenario.map { #"{"scenario":\#(FieldValue.string($0).jsonText),"# }
        writer = ThreadBound(Writer())
    }

    /// Makes the calling thread the spool's: the job, before it runs its file; the command,
    /// after the job ended, before it copies.
    func claim() {
        writer.claim()
    }

    /// Appends one trace line (a JSON object).
    func append(_ line: String) {
        let writer = writer.value
        if writer.file == nil, !writer.failed {
            writer.file = fopen(path, "w")
            writer.failed = writer.file == nil
        }
        guard let file = writer.file else { return }
        if let tag {
            fputs(tag, file)
            fputs(String(line.dropFirst()), file)
        } else {
            fputs(line, file)
        }
        if fputc(0x0A, file) == EOF { writer.failed = true }
    }

    /// Ends the writing (the run is over).
    func finish() {
        let writer = writer.value
        if let file = writer.file, fclose(file) != 0 { writer.failed = true }
        writer.file = nil
    }

    /// Copies everything appended to `output`, a chunk at a time.
    func copy(to output: OutputFile) throws {
        guard !writer.value.failed else { throw ValidationError("--trace: cannot write the temporary file \(path)") }
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
