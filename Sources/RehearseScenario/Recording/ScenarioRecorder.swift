import Foundation
import RehearseCore
import Yams

/// A scenario file written from a live simulation: the set-up it was built from, then every event
/// injected from outside (``Simulation/injectionObserver``) as an `emit` step at the simulated time
/// it was injected (`at:` steps between), with its own `at` when it was injected ahead of time. `rehearse run` on the file replays the simulation and gives the same
/// trace: the file is the start of a regression test (add `expect` steps). Secure text is written
/// masked, a `•` for each character typed (``Redaction/masked(_:)``): a password never reaches a
/// file, and a replay types as many characters as the session was given, empty stays empty.
public final class ScenarioRecorder {
    /// At most this many steps are recorded (a scenario's own limit); past it the recording stops.
    public static let maximumSteps = ScenarioLimits.steps
    /// The most bytes of steps, so the file stays within a scenario file's size.
    public static let maximumStepBytes = ScenarioLimits.fileBytes / 2

    /// What the simulation was built from; its text is read again only when the file is written.
    private let setup: Scenario
    private let name: String
    private var steps: [String] = []
    private var stepBytes = 0
    private var lastTime = VirtualTime.zero
    /// When the recording stopped at a limit: the time it reached, and which limit.
    public private(set) var stopped: (time: VirtualTime, reason: String)?

    /// Records `simulation`, which was built from `setup` (its steps are not kept), under `name`.
    public init(_ simulation: Simulation, setup: Scenario, name: String) {
        self.setup = setup
        self.name = name
        simulation.injectionObserver = { [unowned self, unowned simulation] event, due in
            record(event, due: due, at: simulation.now, in: simulation)
        }
    }

    /// `event`, injected at `time`, now or (`due`) later.
    private func record(_ event: Event, due: VirtualTime?, at time: VirtualTime, in simulation: Simulation) {
        guard stopped == nil else { return }
        let masked = simulation.maskingSecureText(event)
        let recorded = masked == event ? simulation.redactingSecrets(event) : masked
        var new: [String] = []
        if time > lastTime { new.append("- at: \(Self.seconds(time))") }
        let fields = recorded.fields
        new.append(
            "- emit: {name: \(FieldValue.string(recorded.name).jsonText)"
                + (fields.isEmpty ? "" : ", fields: \(YAMLFlow.value(.dictionary(fields), quoted: true))")
                + (due.map { ", at: \(Self.seconds($0))" } ?? "") + "}")
        let bytes = new.reduce(0) { $0 + $1.utf8.count + 3 }
        guard steps.count + new.count < Self.maximumSteps, stepBytes + bytes <= Self.maximumStepBytes else {
            stopped = (
                lastTime,
                steps.count + new.count >= Self.maximumSteps
                    ? "\(Self.maximumSteps) steps" : "\(Self.maximumStepBytes) bytes of steps"
            )
            return
        }
        steps += new
        stepBytes += bytes
        lastTime = time
    }

    /// The scenario file: the set-up, the recorded steps and a last `at:` at `end` (the simulated
    /// time now), so a replay runs as long as the simulation did. A recording stopped at a limit
    /// ends where it stopped, and says so. Throws only if the set-up's text no longer parses.
    public func text(endingAt end: VirtualTime) throws -> String {
        var lines = ["# Recorded by rehearse: `rehearse run` replays it. Add `expect` steps to make it a test."]
        var finalTime = end
        if let stopped {
            lines.append("# The recording stopped at \(Self.seconds(stopped.time)) s: it reached its limit of \(stopped.reason).")
            finalTime = stopped.time
        }
        lines.append("name: \(YAMLFlow.quoted(name))")
        lines.append(try Self.setupText(of: setup).trimmingCharacters(in: .newlines))
        lines.append("steps:")
        lines += steps.map { "  " + $0 }
        if finalTime > lastTime || steps.isEmpty { lines.append("  - at: \(Self.seconds(finalTime))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `setup`'s set-up: the top-level keys of the file it was loaded from but `name`, `steps` and
    /// `plugins`, and the plugins as the model has them (`Configure` may have changed them).
    static func setupText(of setup: Scenario) throws -> String {
        var text = ""
        if case .mapping(var mapping)? = try Yams.compose(yaml: setup.text, YAMLCoreSchema.resolver) {
            for key in ["name", "steps", "plugins"] { mapping[Node(key)] = nil }
            if !mapping.isEmpty { text = try Yams.serialize(node: .mapping(mapping), sortKeys: false) }
        }
        if !setup.remotePlugins.isEmpty {
            text +=
                "plugins:\n"
                + setup.plugins.map { "  - " + YAMLFlow.value(pluginItem($0.id, $0.overrides, in: setup), quoted: true) + "\n" }
                .joined()
        } else if !setup.plugins.isEmpty {
            let plugins = setup.plugins.map {
                "\(FieldValue.string($0.id).jsonText): \(YAMLFlow.value(.dictionary($0.overrides), quoted: true))"
            }
            text += "plugins: {" + plugins.joined(separator: ", ") + "}\n"
        }
        return text
    }

    /// A plugin as an item of the `plugins:` list: a command plugin with what started it, its
    /// folder made absolute (the recording is written elsewhere). A plugin that registered over
    /// D-Bus has no command to write: replaying the file says its id is unknown.
    private static func pluginItem(_ id: String, _ overrides: Fields, in setup: Scenario) -> FieldValue {
        var item: Fields = ["id": .string(id), "configuration": .dictionary(overrides)]
        if let command = setup.remotePlugins.first(where: { $0.descriptor.id == id })?.command {
            item["command"] = .array(command.arguments.map(FieldValue.string))
            item["directory"] = .string(command.directory)
            item["deadline"] = .double(command.deadline)
            if !command.reads.isEmpty { item["reads"] = .array(command.reads.map(FieldValue.string)) }
        }
        return .dictionary(item)
    }

    /// Seconds with every nanosecond: the loader reads them back to the same time.
    private static func seconds(_ time: VirtualTime) -> String {
        let (whole, fraction) = time.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return String(format: "%lld.%09lld", Int64(whole), Int64(fraction))
    }
}

extension Simulation {
    /// `event` as scenario files have it: text typed into a field that is secure now masked, a
    /// `•` for each character (``Redaction/masked(_:)``), so a password never reaches a file and
    /// a replay types as many characters.
    func maskingSecureText(_ event: Event) -> Event {
        guard case .text(var input) = event, scene[input.target]?.secure == true else { return event }
        input.text = Redaction.masked(input.text)
        return .text(input)
    }
}
