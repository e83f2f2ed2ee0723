import Foundation
import RehearseCore

/// Loads scenario files and validates them completely before anything runs: YAML syntax, every
/// key, node id, plugin id, path and event name, with `file:line:column` and did-you-mean hints.
public struct ScenarioLoader: Sendable {
    /// The plugins scenarios may name.
    public let registry: PluginRegistry
    /// What starts the programs of command plugins (`plugins: [{id, command}]`); without one a
    /// file that names a command is refused.
    public var commandStarter: (any PluginCommandStarter)?

    /// The most errors reported for one file: reading stops after them.
    public static let maximumReportedErrors = 20

    public init(registry: PluginRegistry, commandStarter: (any PluginCommandStarter)? = nil) {
        self.registry = registry
        self.commandStarter = commandStarter
    }

    /// Loads the scenario file at `path`, reading at most ``ScenarioLimits/fileBytes`` bytes of it (a larger
    /// file is refused from its size, before it is read).
    public func load(file path: String) throws(ScenarioError) -> Scenario {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: ScenarioLimits.fileBytes)
        } catch {
            let start = SourceLocation(file: path, line: 1, column: 1)
            switch error {
            case .tooLarge(let size, _):
                throw ScenarioError(
                    YAMLDocument.sizeMessage(
                        size.map { "is \($0) bytes" } ?? "holds more than \(ScenarioLimits.fileBytes) bytes"),
                    at: start)
            case .folder, .system:
                throw ScenarioError("cannot read the file: \(error)", at: start)
            }
        }
        return try load(data: data, file: path)
    }

    /// Loads a scenario from `data`, naming `file` in errors.
    public func load(data: Data, file: String) throws(ScenarioError) -> Scenario {
        let root = try YAMLDocument.parse(data, file: file)
        let entries = try root.mapping("a scenario", allowed: ScenarioSyntax.topLevel)
        guard let nameValue = entries["name"] else { throw root.error("missing key 'name': give the scenario a name") }
        guard let stepsValue = entries["steps"] else { throw root.error("missing key 'steps': list what to do and expect") }
        let device = try entries["device"].map(readDevice) ?? .iPhone5
        let model =
            try entries["animations"].map { value throws(ScenarioError) in
                try value.choice("animations", as: AnimationModel.self)
            } ?? .additive
        let plugins = try entries["plugins"].map(readPlugins) ?? []
        let nodes = try readScene(entries["scene"], plugins: plugins, device: device, root: root)
        let layout = try entries["scene"].flatMap(readLayout)
        var scenario = Scenario(
            file: file, name: try nameValue.string("name"), device: device, animationModel: model,
            nodes: nodes.map { ($0.node, $0.parent) }, layout: layout?.spec, plugins: plugins.map { ($0.id, $0.overrides) },
            steps: [], duration: .zero, text: String(decoding: data, as: UTF8.self))
        scenario.remotePlugins = try startCommands(of: plugins)
        // The steps are checked against the simulation every run starts from, built the same way.
        let simulation = try setUp(scenario, nodes: nodes, layoutValue: layout?.value, plugins: plugins)
        var parser = StepParser(
            simulation: simulation, declaredScene: { [scenario] in try? scenario.makeSimulation(plugins: []) })
        var errors = ScenarioErrors()
        if let settle = entries["settle"] {
            guard case .string(ScenarioSyntax.autoSettle)? = settle.scalarValue else {
                let found = (try? settle.string("settle")).map { "'\($0)'" } ?? settle.typeName
                throw settle.error(
                    "settle at the top of a file is auto (a settle after every step that starts motion), found \(found)")
            }
            parser.settlesAfterSteps = true
            scenario.settlesAfterSteps = true
        }
        scenario.invariants =
            try entries["invariants"].map { value throws(ScenarioError) in try parser.invariants(value, errors: &errors) } ?? []
        scenario.explore =
            errors.keep { () throws(ScenarioError) in
                try entries["explore"].map { value throws(ScenarioError) in try parser.exploreSettings(value) }
            } ?? nil
        scenario.accessibilityDeviations =
            errors.keep { () throws(ScenarioError) -> [AccessibilityDeviation] in
                try entries["accessibility"].map { value throws(ScenarioError) in try parser.accessibilityDeviations(value) }
                    ?? []
            } ?? []
        let stepValues =
            errors.keep { () throws(ScenarioError) -> [YAMLValue] in
                let values = try stepsValue.sequence("steps")
                guard values.count <= ScenarioLimits.steps else {
                    throw stepsValue.error("\(values.count) steps; a scenario has at most \(ScenarioLimits.steps) steps")
                }
                return values
            } ?? []
        for value in stepValues {
            if let step = errors.keep({ () throws(ScenarioError) in try parser.step(value) }) { scenario.steps.append(step) }
        }
        try errors.throwIfAny()
        scenario.duration = parser.clock
        return scenario
    }

    /// The simulation `scenario` sets up, with any problem reported where that part is written.
    private func setUp(
        _ scenario: Scenario, nodes: [NodeEntry], layoutValue: YAMLValue?,
        plugins: [PluginEntry]
    ) throws(ScenarioError) -> Simulation {
        var configured: [ConfiguredPlugin] = []
        for plugin in plugins {
            guard let descriptor = scenario.plugin(plugin.id, in: registry) else {
                let known = registry.descriptors.map(\.id)
                throw plugin.idValue.error(
                    "unknown plugin '\(plugin.id)'\(Suggestion.hint(for: plugin.id, among: known)); "
                        + "known plugins: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
            }
            do {
                configured.append(try descriptor.configured(plugin.overrides))
            } catch {
                throw pluginError(error, plugin)
            }
        }
        do {
            return try scenario.makeSimulation(plugins: configured)
        } catch {
            switch error.part {
            case .node(let index):
                let entry = nodes[index]
                if error.underlying is ZoomViewError {
                    throw ScenarioError("\(error)", at: entry.value.location(ofField: "viewForZooming"))
                }
                guard case SceneError.unknownNode(let parent) = error.underlying else { throw entry.value.error("\(error)") }
                let known = [Scene.rootID] + nodes[..<index].map(\.node.id)
                throw entry.value.error(
                    "unknown parent '\(parent)'\(Suggestion.hint(for: parent, among: known)); "
                        + "a parent must be listed before its children (nodes so far: \(known.joined(separator: ", ")))")
            case .layout:
                throw ScenarioError(
                    "\(error)", at: layoutValue?.location ?? SourceLocation(file: scenario.file, line: 1, column: 1))
            case .plugin(let index):
                throw pluginError(error.underlying, plugins[index])
            }
        }
    }

    /// A plugin's configuration or installation problem, at the key at fault or at the plugin's id.
    private func pluginError(_ error: any Error, _ plugin: PluginEntry) -> ScenarioError {
        switch error {
        case let error as FieldError:
            ScenarioError("plugin '\(plugin.id)': \(error)", at: plugin.configuration.location(ofField: error.path))
        case let error as PluginInstallError:
            plugin.idValue.error("\(error)")
        case let error as RemoteReadsError:
            readError(error, plugin)
        default:
            plugin.idValue.error("plugin '\(plugin.id)' cannot be installed: \(error)")
        }
    }

    /// A command plugin's read that reads nothing, at the path in its `reads:` when the scenario
    /// gave it (else at the plugin's id: the plugin declared it).
    private func readError(_ error: RemoteReadsError, _ plugin: PluginEntry) -> ScenarioError {
        guard case .unreadable(_, let pathError) = error,
            let value = plugin.readValues.first(where: { (try? $0.string("a path")) == pathError.path })
        else {
            return plugin.idValue.error("\(error)")
        }
        return value.error("\(error)")
    }

    /// Reads `scene.constraints`, if the scene is a mapping that has them.
    private func readLayout(_ scene: YAMLValue) throws(ScenarioError) -> (spec: LayoutSpec, value: YAMLValue)? {
        guard case .mapping = scene.node, let value = try scene.mapping("scene").first(where: { $0.key == "constraints" })?.value
        else {
            return nil
        }
        let (spec, activeValue) = try LayoutSpecReader.read(value)
        return (spec, activeValue ?? value)
    }

    private func readDevice(_ value: YAMLValue) throws(ScenarioError) -> Device {
        if case .scalar = value.node {
            let name = try value.string("device")
            guard let device = Device.presets[name] else {
                let known = Device.presetList.map(\.name)
                throw value.error(
                    "unknown device '\(name)'\(Suggestion.hint(for: name, among: known)); "
                        + "presets: \(known.joined(separator: ", ")), or a mapping {width, height, hz, keyboard: {portrait, landscape}, ...}"
                )
            }
            return device
        }
        guard case .dictionary(let fields)? = try value.fieldValue("device") else {
            throw value.error("device must be a preset name or a mapping, found \(value.typeName)")
        }
        do {
            return try Device(fields: fields)
        } catch {
            throw ScenarioError("device: \(error)", at: value.location(ofField: error.path))
        }
    }

    struct PluginEntry {
        let id: String
        let overrides: Fields
        /// What starts it, for a command plugin.
        var command: PluginCommand?
        /// Where the id is written (errors about the plugin itself).
        let idValue: YAMLValue
        /// Where the overrides are written (errors about a configuration key).
        let configuration: YAMLValue
        /// Where a command plugin's `reads:` and each of its paths are written.
        var readsValue: YAMLValue?
        var readValues: [YAMLValue] = []
    }

    private func readPlugins(_ value: YAMLValue) throws(ScenarioError) -> [PluginEntry] {
        var entries: [PluginEntry] = []
        if case .sequence = value.node {
            for item in try value.sequence("plugins") {
                if case .mapping = item.node {
                    entries.append(try readPluginItem(item))
                } else {
                    entries.append(
                        PluginEntry(id: try item.string("a plugin id"), overrides: [:], idValue: item, configuration: item))
                }
            }
        } else {
            for (id, key, configuration) in try value.mapping("plugins") {
                switch try configuration.fieldValue("the configuration of '\(id)'") {
                case .dictionary(let overrides)?:
                    entries.append(PluginEntry(id: id, overrides: overrides, idValue: key, configuration: configuration))
                case nil:
                    entries.append(PluginEntry(id: id, overrides: [:], idValue: key, configuration: key))
                default:
                    throw configuration.error("the configuration of '\(id)' must be a mapping, found \(configuration.typeName)")
                }
            }
        }
        var seen: Set<String> = []
        for entry in entries where !seen.insert(entry.id).inserted {
            throw entry.idValue.error("plugin '\(entry.id)' is listed twice")
        }
        return entries
    }

    /// `{id, configuration?}`, or `{id, command, deadline?, directory?, reads?, configuration?}`: a plugin
    /// that is a program, run in `directory` (the file's folder by default).
    private func readPluginItem(_ item: YAMLValue) throws(ScenarioError) -> PluginEntry {
        let entries = try item.mapping("a plugin", allowed: ScenarioSyntax.pluginItem)
        guard let idValue = entries["id"] else {
            throw item.error(
                "a plugin given as a mapping needs id ({id: gateway, configuration: {...}} or {id: undo-shake, command: [python3, undo_shake.py]})"
            )
        }
        let id = try idValue.string("id")
        var overrides: Fields = [:]
        if let configuration = entries["configuration"] {
            guard case .dictionary(let fields)? = try configuration.fieldValue("configuration") else {
                throw configuration.error("the configuration of '\(id)' must be a mapping, found \(configuration.typeName)")
            }
            overrides = fields
        }
        guard let commandValue = entries["command"] else {
            for key in ["deadline", "directory", "reads"] {
                if let value = entries[key] { throw value.error("\(key) is for a command plugin: give command too") }
            }
            return PluginEntry(id: id, overrides: overrides, idValue: idValue, configuration: entries["configuration"] ?? idValue)
        }
        let words = try commandValue.sequence("command")
        guard (1...ScenarioLimits.commandArguments).contains(words.count) else {
            throw commandValue.error(
                "command has 1 to \(ScenarioLimits.commandArguments) words (the program, then its arguments), found \(words.count)"
            )
        }
        var arguments: [String] = []
        for word in words {
            let text = try word.string("a word of the command")
            guard !text.isEmpty, !text.utf8.contains(0) else { throw word.error("a word of the command cannot be empty") }
            // `env` starts the program, and would read a first word with `=` as a variable to set.
            guard !arguments.isEmpty || !text.contains("=") else {
                throw word.error("the program's name cannot contain '=': give a path to it, or run it with [sh, -c, ...]")
            }
            arguments.append(text)
        }
        var deadline = ScenarioLimits.remoteDefaultDeadline
        if let deadlineValue = entries["deadline"] {
            deadline = try deadlineValue.number("deadline")
            guard ScenarioLimits.remoteDeadline.contains(deadline) else {
                throw deadlineValue.error(
                    "deadline is \(ScenarioLimits.remoteDeadline.lowerBound) to \(Int(ScenarioLimits.remoteDeadline.upperBound)) seconds, found \(deadline)"
                )
            }
        }
        let folder = URL(fileURLWithPath: idValue.location.file).deletingLastPathComponent()
        let directory =
            try entries["directory"].map { value throws(ScenarioError) in
                URL(fileURLWithPath: try value.string("directory"), relativeTo: folder).standardizedFileURL.path
            } ?? folder.path
        let readValues = try entries["reads"].map(readReads) ?? []
        var entry = PluginEntry(
            id: id, overrides: overrides,
            command: PluginCommand(
                id: id, arguments: arguments, directory: directory, deadline: deadline,
                reads: try readValues.map { value throws(ScenarioError) in try value.string("a path") }),
            idValue: idValue, configuration: entries["configuration"] ?? idValue)
        entry.readsValue = entries["reads"]
        entry.readValues = readValues
        return entry
    }

    /// A command plugin's `reads:`: at most ``ScenarioLimits/remoteReads`` paths of at most
    /// ``ScenarioLimits/remoteReadPathLength`` Unicode scalars, each once (they are read from the
    /// scene once the plugin is installed).
    private func readReads(_ value: YAMLValue) throws(ScenarioError) -> [YAMLValue] {
        let items = try value.sequence("reads")
        guard items.count <= ScenarioLimits.remoteReads else {
            throw value.error(
                "reads lists \(items.count) paths; a plugin reads at most \(ScenarioLimits.remoteReads) (ScenarioLimits.remoteReads)"
            )
        }
        var seen: Set<String> = []
        for item in items {
            let path = try item.string("a path")
            guard path.unicodeScalars.count <= ScenarioLimits.remoteReadPathLength else {
                throw item.error(
                    "a path a plugin reads is at most \(ScenarioLimits.remoteReadPathLength) Unicode scalars "
                        + "(ScenarioLimits.remoteReadPathLength), found \(path.unicodeScalars.count)")
            }
            if let problem = RemotePluginDeclaration.problem(inRead: path) { throw item.error(problem) }
            guard seen.insert(path).inserted else { throw item.error("reads lists '\(path)' twice") }
        }
        return items
    }

    /// Starts the command plugins among `plugins`, in order, each once it is known not to clash
    /// with a plugin of the registry.
    private func startCommands(of plugins: [PluginEntry]) throws(ScenarioError) -> [RemotePluginEntry] {
        let commands = plugins.filter { $0.command != nil }
        guard !commands.isEmpty else { return [] }
        guard commands.count <= ScenarioLimits.commandPlugins else {
            throw commands[ScenarioLimits.commandPlugins].idValue.error(
                "\(commands.count) command plugins; a scenario starts at most \(ScenarioLimits.commandPlugins)")
        }
        var started: [RemotePluginEntry] = []
        for entry in commands {
            guard let command = entry.command else { continue }
            guard registry[entry.id] == nil else {
                throw entry.idValue.error("'\(entry.id)' is the id of a plugin this program has; give the command plugin another")
            }
            guard let commandStarter else {
                throw entry.idValue.error(
                    "command plugins are started only for files given to rehearse run, explore, validate, view, serve and plugins, not for a file sent over D-Bus"
                )
            }
            do {
                started.append(RemotePluginEntry(command: command, descriptor: try commandStarter.start(command)))
            } catch let error as RemoteReadsError {
                throw (entry.readsValue ?? entry.idValue).error("\(error)")
            } catch {
                throw entry.idValue.error("\(error)")
            }
        }
        return started
    }

    /// The nodes `preset` builds on `device`, parents first.
    private func build(_ preset: ScenePreset, device: Device, at value: YAMLValue) throws(ScenarioError) -> [NodeEntry] {
        let scene = Scene(device: device)
        do {
            try preset.build(scene)
        } catch {
            throw value.error("scene '\(preset.name)' cannot be built: \(error)")
        }
        return scene.allIDs.dropFirst().compactMap { id in
            scene[id].map { NodeEntry(node: $0, parent: $0.parent == Scene.rootID ? nil : $0.parent, value: value) }
        }
    }

    struct NodeEntry {
        let node: Node
        let parent: String?
        let value: YAMLValue
    }

    /// The scene's nodes: inline, a plugin's preset by name, or (when `scene:` is absent) the preset
    /// of the one listed plugin that ships one. Its constraints are read by `readLayout`.
    private func readScene(
        _ value: YAMLValue?, plugins: [PluginEntry], device: Device,
        root: YAMLValue
    ) throws(ScenarioError) -> [NodeEntry] {
        guard let value else {
            let presets = plugins.compactMap { registry[$0.id]?.scene }
            guard presets.count == 1, let preset = presets.first else { return [] }
            return try build(preset, device: device, at: root)
        }
        if case .scalar = value.node {
            let name = try value.string("scene")
            let presets = registry.scenes
            guard let preset = presets.first(where: { $0.name == name }) else {
                let known = presets.map(\.name)
                throw value.error(
                    "unknown scene '\(name)'\(Suggestion.hint(for: name, among: known)); "
                        + "presets: \(known.isEmpty ? "none" : known.joined(separator: ", ")), or a mapping with nodes")
            }
            return try build(preset, device: device, at: value)
        }
        let entries = try value.mapping("scene", allowed: ScenarioSyntax.scene)
        guard let nodesValue = entries["nodes"] else { throw value.error("missing key 'nodes' in scene") }
        var nodes: [NodeEntry] = []
        for item in try nodesValue.sequence("nodes") {
            guard case .dictionary(let fields)? = try item.fieldValue("a node") else {
                throw item.error("a node must be a mapping {id, kind, parent?, frame, ...}, found \(item.typeName)")
            }
            do {
                let (node, parent) = try Node.read(fields: fields)
                nodes.append(NodeEntry(node: node, parent: parent, value: item))
            } catch {
                var message = "node: \(error)"
                if case .unknown = error.problem {
                    let key = error.path
                    let known = ["id", "kind", "parent", "frame"] + Node.fieldNames
                    message = "unknown node property '\(key)'\(Suggestion.hint(for: key, among: known))"
                }
                throw ScenarioError(message, at: item.location(ofField: error.path))
            }
        }
        return nodes
    }
}
