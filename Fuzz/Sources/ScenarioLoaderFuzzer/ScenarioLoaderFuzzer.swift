import Foundation
import RehearseCore
import RehearseScenario

/// libFuzzer's entry point: every input is loaded as a scenario file. Loading may refuse it with
/// a `ScenarioError` (that is the point); anything else (a crash, a hang, a sanitizer report) is a
/// bug. Inputs that load are also run, so the runner meets the same inputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioLoader(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let registry = BehaviourRegistry([])
    guard let scenario = try? ScenarioLoader(registry: registry).load(data: data, file: "fuzz.yaml") else { return 0 }
    // A scenario that waits for hours would make one input slow, not wrong: cap what is run.
    guard scenario.steps.count < 200 else { return 0 }
    _ = ScenarioRunner(registry: registry).run(scenario)
    return 0
}
