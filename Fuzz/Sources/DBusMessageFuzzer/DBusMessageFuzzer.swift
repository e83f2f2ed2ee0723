import Foundation
@_spi(Fuzzing) import RehearseDBusService
import RehearsePlugins
import RehearseScenario

/// The set-up every input is served on: the whole login flow's scene with the login animator and
/// the gateway, so that calls reach plugins, the keyboard and the gateway's transitions.
private let fuzzing: MessageFuzzing = {
    let file = URL(filePath: #filePath).appending(path: "../../../../Scenarios/login-flow/login-flow.yaml").standardized
    do {
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(contentsOf: file), file: file.path)
        return try MessageFuzzing(setup: setup, registry: shippedPlugins)
    } catch {
        fatalError("cannot load the fuzzer's set-up \(file.path): \(error)")
    }
}()

/// libFuzzer's entry point: every input is read as the bytes a connection delivers (a stream of
/// D-Bus messages) and each message is decoded and answered as `rehearse serve` would. Error
/// replies are the point; a crash, a hang or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusMessages(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    do {
        try fuzzing.handle(UnsafeRawBufferPointer(start: bytes, count: count))
    } catch {
        fatalError("the fuzzer's set-up no longer builds: \(error)")
    }
    return 0
}
