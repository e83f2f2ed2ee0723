import ArgumentParser
import Foundation
import RehearseDBusClient
import RehearseDBusInterface
import RehearseDBusWire

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

    /// `error` in plain words for a client (`inject`, `monitor`), with what to do: when no
    /// program owns the simulator's name, how to start one; when there is no bus, ``hint(serving:)``.
    func explain(_ error: any Error) -> String {
        if let call = error as? SimulatorClient.CallError,
            call.name == "org.freedesktop.DBus.Error.ServiceUnknown" || call.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            return "nothing serves \(name) on \(busAddress): start it with `rehearse serve` (add --mode manual to drive "
                + "the clock), or let the bus start it on the first call: `rehearse install-dbus-service` (\(call.name))"
        }
        return "\(error)\(hint(serving: false))"
    }

    /// What to do when the session bus was asked for and there is none (no
    /// `DBUS_SESSION_BUS_ADDRESS`, so libdbus tried to autolaunch one); empty otherwise.
    func hint(serving: Bool) -> String {
        guard address == nil, bus == .session, ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == nil else {
            return ""
        }
        var ways = [
            "run it under a session bus of its own: dbus-run-session -- \(CommandLine.arguments.joined(separator: " "))",
            "or give a bus daemon's address: --address unix:path=...",
        ]
        if serving { ways.append("or serve peers without a bus: rehearse serve --no-bus --listen unix:path=/tmp/rehearse.sock") }
        return "\n  there is no session bus here (DBUS_SESSION_BUS_ADDRESS is not set):\n    " + ways.joined(separator: "\n    ")
    }
}
