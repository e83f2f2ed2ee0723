import ArgumentParser
import Foundation
import RehearseCore
import RehearseDBusClient
import RehearseScenario
import RehearseSupport

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

    @Option(help: "Inject the event this many times, pipelined, and report the sequence numbers and the rate.")
    var times: Int?

    @Option(help: "Calls in flight at once with --times.")
    var window = 64

    @Flag(help: "Inject into a new session of this command's own (it ends with the command), not the default one.")
    var ownSession = false

    @Option(parsing: .upToNextOption, help: "The plugins of the session --own-session creates.")
    var sessionPlugins: [String] = []

    func run() throws {
        var pairs: [(key: String, value: String)] = []
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else { throw ValidationError("'\(field)' is not key=value") }
            pairs.append((String(field[..<equals]), String(field[field.index(after: equals)...])))
        }
        do {
            let client = try SimulatorClient(bus: connection.busAddress, destination: connection.name)
            if ownSession { try client.createSession(["plugins": .array(sessionPlugins.map(FieldValue.string))]) }
            guard let times else {
                let sequence = try client.inject(event, fields: FieldText.fields(pairs))
                print(sequence > 0 ? "sequence \(sequence)" : "swallowed: not delivered (sequence 0)")
                return
            }
            let clock = ContinuousClock()
            let start = clock.now
            let sequences = try client.injectPipelined(
                event, fields: FieldText.fields(pairs), count: times, window: max(window, 1))
            let seconds = (clock.now - start).inSeconds
            print(Self.summary(of: sequences) + ", \(Int(Double(sequences.count) / max(seconds, 1e-9))) calls/s")
        } catch {
            FileHandle.standardError.write(Data("rehearse inject: \(TerminalText.escape(connection.explain(error)))\n".utf8))
            throw ExitCode(2)
        }
    }

    /// What the replies' sequence numbers say: their range, whether they rose call after call,
    /// and how many other events came between them (what an injected event caused, such as a
    /// tap's focus and keyboard events, or other clients' events): not an error. A swallowed
    /// event's 0 is counted apart.
    static func summary(of sequences: [UInt64]) -> String {
        let delivered = sequences.filter { $0 > 0 }
        guard let first = delivered.first, let last = delivered.last else {
            return "\(sequences.count) injected, none delivered (each was swallowed)"
        }
        let inOrder = zip(delivered, delivered.dropFirst()).allSatisfy { $1 > $0 }
        let between = inOrder ? Int(last - first) + 1 - delivered.count : 0
        var text = "\(sequences.count) injected, sequences \(first)...\(last) " + (inOrder ? "in order" : "NOT in order")
        if inOrder { text += between == 0 ? ", no other event between them" : ", \(between) other events between them" }
        if delivered.count < sequences.count { text += ", \(sequences.count - delivered.count) swallowed" }
        return text
    }
}

/// `rehearse monitor [NAME...]`: prints the events a running `rehearse serve` delivers.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the events a running `rehearse serve` delivers, as JSON Lines (only NAMEs when given).",
        discussion: """
            Says "rehearse monitor: following events" on standard error once it sees every event delivered from then on \
            (a script waits for that line before it injects); runs until --count events or SIGINT / SIGTERM, then prints \
            the summary if asked.
            """)

    @OptionGroup var connection: BusOptions

    @Argument(help: "Event names to follow (default: all).")
    var events: [String] = []

    @Option(help: "Stop after this many events.")
    var count: Int?

    @Flag(help: "Print only a summary at the end: how many, and whether the sequence numbers were consecutive.")
    var summary = false

    @Flag(
        help: "On a bus, also take look-alike Event signals from senders other than the service; each line then names its sender."
    )
    var anySender = false

    func run() throws {
        var printed = 0
        var first: UInt64?
        var last: UInt64 = 0
        var consecutive = true
        StopSignal.install()
        do {
            try SimulatorClient(bus: connection.busAddress, destination: connection.name)
                .monitor(
                    names: events, anySender: anySender, shouldStop: { StopSignal.isRequested },
                    ready: {
                        FileHandle.standardError.write(Data("\(Self.readinessLine)\n".utf8))
                    },
                    skip: { reason in
                        FileHandle.standardError.write(Data("rehearse monitor: skipped \(TerminalText.escape(reason))\n".utf8))
                    }
                ) { delivered, sender in
                    if !summary {
                        FileHandle.standardOutput.write(
                            Data((Self.line(delivered, sender: anySender ? sender : nil) + "\n").utf8))
                    }
                    if first != nil, delivered.sequence != last + 1 { consecutive = false }
                    first = first ?? delivered.sequence
                    last = delivered.sequence
                    printed += 1
                    return count.map { printed < $0 } ?? true
                }
            if summary {
                print("\(printed) events, sequences \(first ?? 0)...\(last), consecutive: \(consecutive ? "yes" : "no")")
            }
        } catch {
            FileHandle.standardError.write(Data("rehearse monitor: \(TerminalText.escape(connection.explain(error)))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// What it says on standard error once it follows the events.
    static let readinessLine = "rehearse monitor: following events"

    /// The event's trace line, with its `sender` as a last key when one is given.
    private static func line(_ delivered: DeliveredEvent, sender: String?) -> String {
        guard let sender else { return delivered.traceLine }
        return String(delivered.traceLine.dropLast()) + ",\"sender\":" + FieldValue.string(sender).jsonText + "}"
    }
}
