import Foundation
@_spi(Fuzzing) import RehearseDBusService

// Writes the D-Bus fuzzer's seeds into the folder given: every method called with valid
// arguments, one message per file, and all of them in one stream.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DBusFuzzSeeds FOLDER\n".utf8))
    exit(2)
}
let folder = URL(filePath: CommandLine.arguments[1], directoryHint: .isDirectory)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
for (index, seed) in MessageFuzzing.seeds().enumerated() {
    try Data(seed).write(to: folder.appending(path: "seed-\(index).bin"))
}
