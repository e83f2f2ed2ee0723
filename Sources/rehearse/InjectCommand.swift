import ArgumentParser
import Foundation
import RehearseCore
import RehearseDBus

/// `rehearse inject NAME key=value ...`: injects one event into a running `rehearse serve`.
struct Inject: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Inject an event into a running `rehearse serve` (values: true/false, numbers, text; nested keys dotted).",
        discussion: "Example: rehearse inject motion rotationRate.x=0 rotationRate.y=-0.5 rotationRate.z=0")

    @OptionGroup var connection: BusOptions

    @Argument(help: "The event's name (see `rehearse events`).")
    var event: String

    @Argument(help: "Fields as key=value.")
    var fields: [String] = []

    func run() throws {
        var pairs: [(key: String, value: String)] = []
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else { throw ValidationError("'\(field)' is not key=value") }
            pairs.append((String(field[..<equals]), String(field[field.index(after: equals)...])))
        }
        do {
            let sequence = try SimulatorClient(bus: connection.busAddress, destination: connection.name)
                .inject(event, fields: FieldText.fields(pairs))
            print(sequence)
        } catch {
            FileHandle.standardError.write(Data("rehearse inject: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

/// `rehearse monitor [NAME...]`: prints the events a running `rehearse serve` delivers.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the events a running `rehearse serve` delivers, as JSON Lines (only NAMEs when given).")

    @OptionGroup var connection: BusOptions

    @Argument(help: "Event names to follow (default: all).")
    var events: [String] = []

    @Option(help: "Stop after this many events.")
    var count: Int?

    func run() throws {
        var printed = 0
        do {
            try SimulatorClient(bus: connection.busAddress, destination: connection.name)
                .monitor(names: events, shouldStop: { false }) { delivered in
                    FileHandle.standardOutput.write(Data((delivered.traceLine + "\n").utf8))
                    printed += 1
                    return count.map { printed < $0 } ?? true
                }
        } catch {
            FileHandle.standardError.write(Data("rehearse monitor: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
