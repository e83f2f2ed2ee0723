import ArgumentParser
import RehearseDBus

/// Which bus `serve`, `inject` and `monitor` use, and the simulator's name on it.
struct BusOptions: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case session, system
    }

    @Option(help: "The bus to use: session or system.")
    var bus: Choice = .session

    @Option(help: "Use the bus daemon at this D-Bus address instead (unix:path=...).")
    var address: String?

    @Option(help: "The simulator's well-known name.")
    var name = SimulatorInterface.defaultName

    var busAddress: BusAddress {
        if let address { return .address(address) }
        return bus == .system ? .system : .session
    }
}
