import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario

/// libFuzzer's entry point: every input is loaded as a scenario file, with the plugins that ship. Loading may refuse it with
/// a `ScenarioError` (that is the point); anything else (a crash, a hang, a sanitizer report) is a
/// bug. Inputs that load are also run, so the runner meets the same inputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioLoader(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let scenario = try? ScenarioLoader(registry: shippedPlugins).load(data: data, file: "fuzz.yaml") else { return 0 }
    // A scenario that runs for hours (a panner ticking all along) would make one input slow, not
    // wrong: cap what is run.
    guard scenario.steps.count < 200, scenario.duration.seconds <= 10 else { return 0 }
    _ = ScenarioRunner(registry: shippedPlugins).run(scenario)
    return 0
}
