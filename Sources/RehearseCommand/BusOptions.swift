import ArgumentParser
import Foundation
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

    func validate() throws {
        // libdbus aborts the process on a name its own check refuses: refused here first.
        try BusName.check(name)
    }

    var busAddress: BusAddress {
        if let address { return .address(address) }
        return bus == .system ? .system : .session
    }

    /// What to do when the session bus was asked for and there is none (no
    /// `DBUS_SESSION_BUS_ADDRESS`, so libdbus tried to autolaunch one); empty otherwise.
    func hint(serving: Bool) -> String {
        guard address == nil, bus == .session, ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == nil else { return "" }
        var ways = ["run it under a session bus of its own: dbus-run-session -- \(CommandLine.arguments.joined(separator: " "))",
                    "or give a bus daemon's address: --address unix:path=..."]
        if serving { ways.append("or serve peers without a bus: rehearse serve --no-bus --listen unix:path=/tmp/rehearse.sock") }
        return "\n  there is no session bus here (DBUS_SESSION_BUS_ADDRESS is not set):\n    " + ways.joined(separator: "\n    ")
    }
}
