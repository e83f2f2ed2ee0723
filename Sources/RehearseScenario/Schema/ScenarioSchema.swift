import RehearseCore
import RehearseLayout

/// A JSON Schema (draft 7) of scenario files, for editors with the YAML language server: built
/// from the loader's own tables (``ScenarioSyntax``, the step names, the devices, the plugins'
/// scenes, configurations and events), so what it completes and checks is what the loader reads.
/// It checks the form of a file; what depends on the file itself (node ids, paths, a parent listed
/// before its children) only the loader checks.
public enum ScenarioSchema {
    /// The schema for scenarios that may use `registry`'s plugins, as compact JSON with sorted keys.
    public static func json(registry: PluginRegistry) -> String {
        document(registry: registry).jsonText
    }

    static func document(registry: PluginRegistry) -> FieldValue {
        var declared: [String: Events.Declared] = [:]
        for event in BuiltinEvent.allCases {
            declared[event.name] = (event.declaredFields.required, event.declaredFields.optional, event.fieldShapes)
        }
        let shapes = registry.eventFieldShapes
        for event in registry.events {
            declared[event.name] = (event.declaredFields.required, event.declaredFields.optional, shapes[event.name] ?? [:])
        }
        let events = Events(
            names: (EventDescription.builtin + registry.events).map(\.name),
            declared: declared.keys.sorted().compactMap { name in declared[name].map { (name, $0) } },
            alternatives: Dictionary(
                uniqueKeysWithValues: BuiltinEvent.allCases.map { ($0.name, $0.payloadType.payloadFields.alternatives) }))
        let step = StepParser.StepName.allCases.map { name in
            object([name.rawValue: argument(of: name, events: events)], required: [name.rawValue])
        }
        return object(
            [
                "name": ["type": "string", "description": "What the scenario shows."],
                "device": oneOf([enumeration(Device.presetList.map(\.name)), device]),
                "animations": enumeration(AnimationModel.allCases.map(\.rawValue)),
                "scene": oneOf([enumeration(registry.scenes.map(\.name)), scene]),
                "plugins": oneOf([
                    [
                        "type": "array", "uniqueItems": true,
                        "items": oneOf(
                            [enumeration(registry.descriptors.map(\.id)), commandPlugin]
                                + registry.descriptors.map(configuredPlugin)),
                    ],
                    object(
                        Dictionary(uniqueKeysWithValues: registry.descriptors.map { ($0.id, nullable(configuration(of: $0))) })),
                ]),
                "invariants": ["type": "array", "maxItems": .int(Int64(ScenarioLimits.invariants)), "items": invariant],
                "explore": explore(events: events),
                "accessibility": accessibility,
                "settle": ["const": .string(ScenarioSyntax.autoSettle)],
                // `- settle` is the one step written without an argument.
                "steps": [
                    "type": "array", "maxItems": .int(Int64(ScenarioLimits.steps)),
                    "items": oneOf(step + [["const": .string(StepParser.StepName.settle.rawValue)]]),
                ],
            ], required: ["name", "steps"],
            extra: [
                "$schema": "http://json-schema.org/draft-07/schema#",
                "definitions": ["value": value, "item": item, "expected": expected, "expectedItem": expectedItem],
                "title": "Rehearse scenario",
                "description": "A Rehearse scenario file: see Scenarios/README.md.",
            ])
    }

    /// The `accessibility:` section: deviations from the rules, each a known rule, a node id and a
    /// reason that is not blank.
    private static var accessibility: FieldValue {
        let reason: FieldValue = [
            "type": "string", "pattern": "\\S", "minLength": .int(Int64(ScenarioLimits.deviationReasonLength.lowerBound)),
            "maxLength": .int(Int64(ScenarioLimits.deviationReasonLength.upperBound)),
        ]
        let deviation = object(
            ["rule": enumeration(AccessibilityRule.allCases.map(\.rawValue)), "node": string, "reason": reason],
            required: ScenarioSyntax.deviation)
        return object([
            "deviations": ["type": "array", "maxItems": .int(Int64(ScenarioLimits.accessibilityDeviations)), "items": deviation]
        ])
    }

    /// A mapping in the `plugins:` list for a shipped plugin: its id and its configuration.
    private static func configuredPlugin(_ plugin: PluginDescriptor) -> FieldValue {
        object(["id": ["const": .string(plugin.id)], "configuration": configuration(of: plugin)], required: ["id"])
    }

    /// A mapping in the `plugins:` list for a command plugin (docs/remote-plugins.md): any id, and
    /// the program to start. The events it declares are known only once it runs, so steps that
    /// name them validate with the loader, not with this schema.
    private static var commandPlugin: FieldValue {
        object(
            [
                "id": string,
                "directory": string,
                "command": [
                    "type": "array", "minItems": 1, "maxItems": .int(Int64(ScenarioLimits.commandArguments)),
                    "items": ["type": "string", "minLength": 1],
                ],
                "deadline": [
                    "type": "number", "minimum": .double(ScenarioLimits.remoteDeadline.lowerBound),
                    "maximum": .double(ScenarioLimits.remoteDeadline.upperBound),
                ],
                "reads": [
                    "type": "array", "maxItems": .int(Int64(ScenarioLimits.remoteReads)), "uniqueItems": true,
                    "items": [
                        "type": "string", "minLength": 1, "maxLength": .int(Int64(ScenarioLimits.remoteReadPathLength)),
                    ],
                ],
                "configuration": ["type": "object"],
            ], required: ["id", "command"])
    }

    // MARK: Steps

    /// What each step takes; a switch over every step, so a new step cannot miss its schema.
    private static func argument(of name: StepParser.StepName, events: Events) -> FieldValue {
        switch name {
        case .tap: oneOf([string, object(keys(ScenarioSyntax.tapPoint, number), required: ScenarioSyntax.tapPoint), nodeQuery])
        case .wait, .at: seconds
        case .expect: paths(value: expectedValue)
        case .type: object(["into": node, "text": text], required: ScenarioSyntax.type)
        case .return, .focus, .resign: node
        case .snapshot: fileName
        case .expectPicture: oneOf([fileName, object(["name": fileName, "tolerance": length], required: ["name"])])
        case .keyboard:
            oneOf([
                ["const": "hide"],
                object(["show": ["const": false]], required: ["show"]),
                object(
                    [
                        "show": ["const": true], "height": length, "duration": seconds,
                        "curve": enumeration(NamedCurve.allCases.map(\.rawValue)),
                    ],
                    required: ["show"]),
            ])
        case .motion:
            // A sample's fields as `motion` events have them, and the stream's length and rate.
            object(
                properties(of: MotionSample.payloadFields).merging([
                    "for": seconds, "hz": range(ScenarioLimits.motionRate, type: "number"),
                ]) { $1 }, required: MotionSample.payloadFields.required.sorted(), extra: ["dependencies": ["hz": ["for"]]])
        case .rotate: enumeration(Orientation.allCases.map(\.rawValue))
        case .network: oneOf([boolean, object(keys(ScenarioSyntax.network, boolean), required: ScenarioSyntax.network)])
        case .tapStatusBar: ["const": true]
        case .emit:
            object(
                ["name": events.name, "fields": fields, "at": seconds], required: ["name"], extra: events.fields(exactly: true))
        case .set: paths(value: item)
        case .animate:
            object(
                [
                    "target": string, "property": enumeration(animatablePaths), "to": item, "duration": seconds,
                    "curve": curve, "delay": seconds,
                    "options": ["type": "array", "items": enumeration(ScenarioSyntax.animateOptions)],
                ], required: ["target", "property", "to", "duration"])
        case .activate: oneOf([string, ["type": "array", "items": string]])
        case .expectEvent:
            oneOf([
                events.name,
                object(
                    [
                        "name": events.name, "fields": expectedFields,
                        "count": oneOf([
                            range(0...ScenarioLimits.eventCount, type: "integer"),
                            object(
                                ["between": pair(range(0...ScenarioLimits.eventCount, type: "integer"))], required: ["between"]),
                        ]),
                    ], required: ["name"], extra: events.fields(exactly: false)),
            ])
        case .expectNoEvent:
            oneOf([
                events.name,
                object(
                    ["name": events.name, "fields": expectedFields], required: ["name"],
                    extra: events.fields(exactly: false)),
            ])
        case .drag, .swipe, .fling, .longPress, .pinch, .touches: touchArgument(of: name)
        case .expectVisible, .expectNotVisible: node
        case .scrollUntilVisible:
            object(
                [
                    "node": node, "in": node, "direction": enumeration(SwipeDirection.allCases.map(\.rawValue)),
                    "max": range(1...ScenarioLimits.scrollDrags, type: "integer"),
                ], required: ["node", "in"])
        case .settle: oneOf([["type": "null"], object(["timeout": waitTimeout])])
        case .waitUntil: oneOf([condition, object(["until": condition, "timeout": waitTimeout], required: ["until"])])
        case .expectAccessible:
            oneOf([
                ["const": "all"],
                [
                    "type": "array", "minItems": 1, "uniqueItems": true,
                    "items": enumeration(AccessibilityRule.allCases.map(\.rawValue)),
                ],
            ])
        }
    }

    /// A settle's or wait-until's timeout, in seconds.
    private static let waitTimeout: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(ScenarioLimits.waitSeconds)]

    /// What a touch step takes. Whether a point is on the screen depends on the device and the
    /// orientation the steps have reached, which only the loader knows; the schema bounds it by
    /// the longest screen side.
    private static func touchArgument(of name: StepParser.StepName) -> FieldValue {
        let coordinate: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(ScenarioLimits.deviceLength)]
        let point = oneOf([pair(coordinate), object(["x": coordinate, "y": coordinate], required: ["x", "y"])])
        let duration: FieldValue = ["type": "number", "exclusiveMinimum": 0, "maximum": .double(ScenarioLimits.runSeconds)]
        // A gesture aimed at a node: `on` it, `at` a point of it, its path's own keys.
        func aimed(_ keys: [String: FieldValue], required: [String]) -> FieldValue {
            object(keys.merging(["on": node, "at": point]) { $1 }, required: ["on"] + required)
        }
        let signed: FieldValue = [
            "type": "number", "minimum": .double(-ScenarioLimits.deviceLength), "maximum": .double(ScenarioLimits.deviceLength),
        ]
        let direction = enumeration(SwipeDirection.allCases.map(\.rawValue))
        let distance: FieldValue = ["type": "number", "exclusiveMinimum": 0, "maximum": .double(ScenarioLimits.deviceLength)]
        let scale: FieldValue = ["type": "number", "exclusiveMinimum": 0, "maximum": .double(ScenarioLimits.pinchScale)]
        switch name {
        case .drag:
            return oneOf([
                object(
                    ["from": point, "to": point, "duration": duration, "hold": seconds], required: ["from", "to", "duration"]),
                aimed(
                    [
                        "by": oneOf([pair(signed), object(["x": signed, "y": signed], required: ["x", "y"])]),
                        "duration": duration,
                        "hold": seconds,
                    ],
                    required: ["by"]),
            ])
        case .swipe:
            return oneOf([
                object(["from": point, "direction": direction, "distance": distance], required: ["from", "direction"]),
                aimed(["direction": direction, "distance": distance], required: ["direction"]),
            ])
        case .fling:
            let speed: FieldValue = [
                "type": "number", "minimum": .double(-ScenarioLimits.gestureVelocity),
                "maximum": .double(ScenarioLimits.gestureVelocity),
            ]
            let velocity = oneOf([pair(speed), object(["x": speed, "y": speed], required: ["x", "y"])])
            return aimed(
                ["velocity": ["allOf": [velocity, ["not": oneOf([["const": [0, 0]], ["const": ["x": 0, "y": 0]]])]]]],
                required: ["velocity"])
        case .longPress:
            return oneOf([
                node,
                object(
                    ["at": point, "target": node, "duration": duration],
                    extra: ["oneOf": [["required": ["at"]], ["required": ["target"]]]]),
                aimed(["duration": duration], required: []),
            ])
        case .pinch:
            return oneOf([
                object(["center": point, "scale": scale, "duration": duration], required: ScenarioSyntax.pinch),
                aimed(["scale": scale, "duration": duration], required: ["scale"]),
            ])
        case .touches:
            let touch = object(
                [
                    "id": range(ScenarioLimits.touchIDs, type: "integer"),
                    "phase": enumeration(TouchPhase.allCases.map(\.rawValue)), "point": point, "time": seconds,
                ],
                required: ScenarioSyntax.touch)
            return ["type": "array", "minItems": 1, "items": touch]
        case .tap, .wait, .at, .expect, .type, .return, .focus, .resign, .keyboard, .motion, .rotate, .network, .emit, .set,
            .animate, .activate, .expectEvent, .expectNoEvent, .snapshot, .expectPicture, .expectVisible, .expectNotVisible,
            .scrollUntilVisible, .settle, .waitUntil, .expectAccessible, .tapStatusBar:
            return ["not": [:]]
        }
    }

    /// An `expect:` path's value: an expected value (``expected``), where a mapping of `between`
    /// alone is a pair of numbers, as the loader reads them.
    private static var expectedValue: FieldValue {
        [
            "allOf": [["$ref": "#/definitions/expected"]],
            "if": ["type": "object", "required": ["between"], "maxProperties": 1],
            "then": object(["between": pair(number)], required: ["between"]),
        ]
    }

    /// An expected value at any depth: a value, where a mapping with `approx` or `within` must be
    /// exactly both (`within` not negative), as the loader reads them.
    private static let expected: FieldValue = [
        "if": ["type": "object", "anyOf": [["required": ["approx"]], ["required": ["within"]]]],
        "then": object(["approx": number, "within": notNegative], required: ScenarioSyntax.approximate),
        "else": [
            "type": ["string", "number", "boolean", "null", "array", "object"],
            "items": ["$ref": "#/definitions/expectedItem"], "additionalProperties": ["$ref": "#/definitions/expected"],
        ],
    ]
    /// An expected value in a list: not null.
    private static let expectedItem: FieldValue = ["allOf": [["not": ["type": "null"]], ["$ref": "#/definitions/expected"]]]
    /// The fields an `expect-event` or `expect-no-event` matches: expected values.
    private static let expectedFields: FieldValue = [
        "type": "object", "additionalProperties": ["$ref": "#/definitions/expected"],
    ]

    /// `PATH OP VALUE`, the form of an invariant's `check` and `when`.
    private static let condition: FieldValue = [
        "type": "string", "maxLength": .int(Int64(ScenarioLimits.conditionLength)),
        "pattern": #"^\s*[^\s=!<>]+\s*(==|!=|<=|>=|<|>)\s*\S.*$"#,
    ]

    /// `frame`, `frame.y`, ...: every animatable property and component.
    private static var animatablePaths: [String] {
        AnimatableProperty.allCases.flatMap { property in
            [property.rawValue] + property.componentNames.map { "\(property.rawValue).\($0)" }
        }
    }

    private static var curve: FieldValue {
        oneOf([
            enumeration(NamedCurve.allCases.map(\.rawValue)),
            object(["bezier": ["type": "array", "items": number, "minItems": 4, "maxItems": 4]], required: ["bezier"]),
            object(
                [
                    "spring": object(
                        ["mass": positive, "stiffness": positive, "damping": notNegative, "velocity": number],
                        required: ["stiffness", "damping"])
                ], required: ["spring"]),
            object(
                [
                    "pop": object(
                        keys(
                            ScenarioSyntax.pop,
                            [
                                "type": "number", "minimum": .double(ScenarioLimits.popParameter.lowerBound),
                                "maximum": .double(ScenarioLimits.popParameter.upperBound),
                            ]))
                ], required: ["pop"]),
        ])
    }

    // MARK: Set-up

    private static var device: FieldValue {
        let positiveLength: FieldValue = [
            "type": "number", "exclusiveMinimum": 0, "maximum": .double(ScenarioLimits.deviceLength),
        ]
        // Each as the loader reads it: a mapping, or a list in the keys' order.
        func mappingOrList(_ keyNames: [String], _ value: FieldValue) -> FieldValue {
            oneOf([
                object(keys(keyNames, value), required: keyNames),
                [
                    "type": "array", "items": value, "minItems": .int(Int64(keyNames.count)),
                    "maxItems": .int(Int64(keyNames.count)),
                ],
            ])
        }
        func perOrientation(_ value: FieldValue) -> FieldValue { mappingOrList(ScenarioSyntax.orientations, value) }
        let insets = mappingOrList(ScenarioSyntax.insets, length)
        return object(
            [
                "width": positiveLength, "height": positiveLength, "hz": range(ScenarioLimits.deviceRefreshRate, type: "integer"),
                "scale": range(ScenarioLimits.deviceScale, type: "integer"), "keyboard": perOrientation(positiveLength),
                "statusBar": perOrientation(length), "insets": perOrientation(insets),
            ],
            required: ScenarioSyntax.requiredDevice)
    }

    private static var scene: FieldValue {
        let options = enumeration(VisualFormatParser.AlignmentOption.allCases.map(\.rawValue))
        // Options apply to visual format lines only: those the loader reads as one (`H:`, `V:` or a `[view]`).
        let optionsNeedAVisualFormat: Fields = [
            "if": ["required": ["options"], "properties": ["options": ["minItems": 1]]],
            "then": ["properties": ["format": ["pattern": #"^(H:|V:)|\["#]]],
        ]
        let constraint = oneOf([
            string,
            object(
                ["format": string, "options": ["type": "array", "items": options]], required: ["format"],
                extra: optionsNeedAVisualFormat),
        ])
        return object(
            [
                "nodes": ["type": "array", "maxItems": .int(Int64(ScenarioLimits.nodes - 1)), "items": sceneNode],
                "constraints": object(
                    [
                        "metrics": ["type": "object", "additionalProperties": number],
                        "sets": ["type": "object", "additionalProperties": ["type": "array", "items": constraint]],
                        "active": oneOf([string, ["type": "array", "items": string]]),
                    ], required: ["sets"]),
            ], required: ["nodes"])
    }

    /// A node a step names: an id, or a ``NodeQuery`` mapping (which of its nodes the scene has,
    /// only the loader knows).
    private static var node: FieldValue { oneOf([string, nodeQuery]) }

    /// `{id?, text?, label?, kind?, traits?, index?}` with at least one of the first five.
    private static var nodeQuery: FieldValue {
        let name: FieldValue = ["type": "string", "minLength": 1, "maxLength": .int(Int64(ScenarioLimits.textLength))]
        let properties = [
            "id": name, "text": name, "label": name, "kind": enumeration(NodeKind.allCases.map(\.rawValue)),
            "traits": traits, "index": range(0...ScenarioLimits.queryIndex, type: "integer"),
        ]
        assert(Set(properties.keys) == Set(NodeQuery.keys), "the schema's query keys are NodeQuery.keys")
        return object(
            properties, extra: ["anyOf": .array(NodeQuery.keys.filter { $0 != "index" }.map { ["required": [.string($0)]] })])
    }

    /// A list of accessibility trait names, each at most once.
    private static var traits: FieldValue {
        ["type": "array", "uniqueItems": true, "items": enumeration(AccessibilityTraits.named.map(\.name))]
    }

    /// A node of `scene.nodes`: `id`, `kind` and `frame`, and its properties, each of which may be null (absent).
    private static var sceneNode: FieldValue {
        let flag: Set = [
            "secure", "enablesReturnKeyAutomatically", "hidden", "bounces", "pagingEnabled", "scrollEnabled",
            "isAccessibilityElement", "directionalLockEnabled", "alwaysBounceVertical", "alwaysBounceHorizontal",
            "scrollsToTop", "bouncesZoom",
        ]
        var properties: [String: FieldValue] = [
            "id": ["type": "string", "pattern": "^[^.\\x00-\\x1F\\x7F-\\x9F]+$", "not": enumeration(Scene.reservedIDs.sorted())],
            "kind": enumeration(NodeKind.allCases.map(\.rawValue)),
            "parent": nullable(string), "frame": components(of: .frame),
        ]
        for name in Node.fieldNames {
            let property: FieldValue =
                switch name {
                case "text", "accessibilityLabel": text
                case "accessibilityTraits": traits
                case "returnKey": enumeration(ReturnKey.allCases.map(\.rawValue))
                case "keyboardDismissMode": enumeration(KeyboardDismissMode.allCases.map(\.rawValue))
                case "decelerationRate":
                    oneOf([
                        enumeration(DecelerationRate.named.map(\.name)),
                        ["type": "number", "exclusiveMinimum": 0, "maximum": .double(ScenarioLimits.decelerationRate)],
                    ])
                case "tag": ["type": "integer"]
                case "zoomScale", "minimumZoomScale", "maximumZoomScale":
                    [
                        "type": "number", "minimum": .double(ScenarioLimits.zoomScale.lowerBound),
                        "maximum": .double(ScenarioLimits.zoomScale.upperBound),
                    ]
                case "viewForZooming": ["type": "string", "pattern": "^[^.]+$"]
                case _ where flag.contains(name): boolean
                default: AnimatableProperty(rawValue: name).map(components(of:)) ?? item
                }
            properties[name] = nullable(property)
        }
        // Only a scroll view zooms: viewForZooming on another kind is refused.
        let zoomsOnlyOnAScrollView: Fields = [
            "if": ["properties": ["kind": ["not": ["const": .string(NodeKind.scrollView.rawValue)]]]],
            "then": ["properties": ["viewForZooming": ["type": "null"]]],
        ]
        return object(properties, required: ["id", "kind", "frame"], extra: zoomsOnlyOnAScrollView)
    }

    /// A property's value as the scene reads it: a number, or its components as a mapping with
    /// every one of them or a list of as many numbers.
    private static func components(of property: AnimatableProperty) -> FieldValue {
        let names = property.componentNames
        guard !names.isEmpty else { return number }
        return oneOf([
            object(keys(names, number), required: names),
            ["type": "array", "items": number, "minItems": .int(Int64(names.count)), "maxItems": .int(Int64(names.count))],
        ])
    }

    private static var invariant: FieldValue {
        object(
            [
                "name": ["type": "string", "minLength": 1, "maxLength": .int(Int64(ScenarioLimits.invariantNameLength))],
                "when": condition, "check": condition,
                "finite": ["type": "array", "items": string, "minItems": 1, "maxItems": .int(Int64(ScenarioLimits.finitePaths))],
            ],
            required: ["name"], extra: ["oneOf": [["required": ["check"]], ["required": ["finite"]]]])
    }

    private static func explore(events: Events) -> FieldValue {
        func list(_ items: FieldValue) -> FieldValue {
            [
                "type": "array", "items": items, "minItems": .int(Int64(ScenarioLimits.exploreValues.lowerBound)),
                "maxItems": .int(Int64(ScenarioLimits.exploreValues.upperBound)),
            ]
        }
        let values: [String: FieldValue] = [
            "nodes": list(string), "values": list(string), "between": pair(seconds),
            "events": list(
                object(["name": events.name, "fields": fields], required: ["name"], extra: events.fields(exactly: true))),
        ]
        let weight: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(ScenarioLimits.exploreWeight)]
        var kinds: [String: FieldValue] = [:]
        for kind in ExploreKind.allCases {
            var options: [String: FieldValue] = ["weight": weight]
            if let key = kind.valuesKey { options[key] = values[key] }
            kinds[kind.rawValue] = oneOf([weight, object(options)])
        }
        return object([
            "length": range(1...ScenarioLimits.exploreLength, type: "integer"),
            "runs": range(1...ScenarioLimits.exploreRuns, type: "integer"), "actions": object(kinds),
        ])
    }

    /// A plugin's configuration, typed after its defaults, with the case names of its enum keys;
    /// a key it does not have is refused.
    private static func configuration(of plugin: PluginDescriptor) -> FieldValue {
        func schema(like defaultValue: FieldValue, at path: String) -> FieldValue {
            if let names = plugin.configurationChoices[path] { return nullable(enumeration(names)) }
            if plugin.configurationDurations.contains(path) { return nullable(seconds) }
            // A mapping whose defaults are empty: its values' form from the configuration's type.
            if case .dictionary(let entries) = defaultValue, entries.isEmpty, let shape = plugin.configurationShapes[path] {
                // Each value may be null too, as the loader reads a configuration (`sections: {settings: null}`).
                if case .mappingOf(let value) = shape {
                    return nullable(["type": "object", "additionalProperties": nullable(ScenarioSchema.schema(of: value))])
                }
                return nullable(ScenarioSchema.schema(of: shape))
            }
            let schema: FieldValue =
                switch defaultValue {
                case .bool: boolean
                case .int, .double: number
                case .string: string
                case .array: ["type": "array", "items": item]
                case .dictionary(let entries):
                    entries.isEmpty
                        ? fields
                        : object(
                            Dictionary(
                                uniqueKeysWithValues: entries.map { key, entry in (key, schema(like: entry, at: path + "." + key))
                                }))
                }
            return nullable(schema)
        }
        return object(
            Dictionary(
                uniqueKeysWithValues: plugin.defaultConfiguration.map { key, value in (key, schema(like: value, at: key)) }))
    }

    // MARK: Events

    /// The events a file may name, and the fields each declares.
    private struct Events {
        /// The names of the fields an event must and may have, and the forms of their values.
        typealias Declared = (required: Set<String>, optional: Set<String>, shapes: [String: FieldShape])

        let names: [String]
        /// Each event's declared fields (``BuiltinEvent/declaredFields``, ``PluginEvent/declaredFields``).
        let declared: [(name: String, fields: Declared)]
        /// The sets of fields of which an event needs one given whole (``PayloadFields/alternatives``), by name.
        let alternatives: [String: [[String]]]

        var name: FieldValue { enumeration(names) }

        /// For each event, the `fields` it declares: no others, and with `exactly` (an event sent,
        /// not matched) every required one, not null, each value of its field's shape.
        func fields(exactly: Bool) -> Fields {
            let rules: [FieldValue] = declared.map { event in
                let (required, optional, shapes) = event.fields
                func sent(_ name: String) -> FieldValue { schema(of: shapes[name] ?? .any) }
                var properties: [String: FieldValue] = [:]
                for name in optional { properties[name] = exactly ? nullable(sent(name)) : ["$ref": "#/definitions/value"] }
                for name in required { properties[name] = exactly ? sent(name) : ["$ref": "#/definitions/value"] }
                let sets = exactly ? alternatives[event.name] ?? [] : []
                // One set given whole: each of a set's fields needs the others (a tap's x its y).
                let needs = Dictionary(
                    uniqueKeysWithValues: sets.flatMap { set in
                        set.map { name in (name, FieldValue.array(set.filter { $0 != name }.map(FieldValue.string))) }
                    }.filter { $0.1 != [] })
                let fields = object(
                    properties, required: exactly ? required.sorted() : [],
                    extra: sets.isEmpty
                        ? [:]
                        : [
                            "anyOf": .array(sets.map { ["required": .array($0.map(FieldValue.string))] }),
                            "dependencies": .dictionary(needs),
                        ])
                var then: Fields = ["properties": ["fields": fields]]
                if exactly && !(required.isEmpty && sets.isEmpty) { then["required"] = ["fields"] }
                return ["if": ["properties": ["name": ["const": .string(event.name)]]], "then": .dictionary(then)]
            }
            return ["allOf": .array(rules)]
        }
    }

    // MARK: Building blocks

    private static let string: FieldValue = ["type": "string"]
    /// A finite number (the loader refuses infinities; JSON Schema cannot refuse NaN).
    private static let number: FieldValue = [
        "type": "number", "minimum": .double(-.greatestFiniteMagnitude),
        "maximum": .double(.greatestFiniteMagnitude),
    ]
    private static let boolean: FieldValue = ["type": "boolean"]
    /// A node's text, in Unicode scalars as `maxLength` counts them.
    private static let text: FieldValue = ["type": "string", "maxLength": .int(Int64(ScenarioLimits.textLength))]
    /// A name that becomes a file name (``PlainFileName``).
    private static let fileName: FieldValue = ["type": "string", "pattern": .string(PlainFileName.pattern)]
    /// A time in a scenario: at most the longest run.
    private static let seconds: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(ScenarioLimits.runSeconds)]
    private static let notNegative: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(.greatestFiniteMagnitude)]
    private static let positive: FieldValue = [
        "type": "number", "exclusiveMinimum": 0, "maximum": .double(.greatestFiniteMagnitude),
    ]
    /// A length in points, from 0 to the longest a device may have.
    private static let length: FieldValue = ["type": "number", "minimum": 0, "maximum": .double(ScenarioLimits.deviceLength)]
    /// Any value a field may hold (the loader's `fieldValue`): a mapping may hold null (the key is
    /// then absent), a list may not.
    private static let value: FieldValue = [
        "type": ["string", "number", "boolean", "null", "array", "object"],
        "items": ["$ref": "#/definitions/item"], "additionalProperties": ["$ref": "#/definitions/value"],
    ]
    /// A value that is not null: an item of a list, a value `set` or animated.
    private static let item: FieldValue = ["allOf": [["not": ["type": "null"]], ["$ref": "#/definitions/value"]]]
    /// An event's fields.
    private static let fields: FieldValue = ["type": "object", "additionalProperties": ["$ref": "#/definitions/value"]]
    /// A value of `shape`, as the field's reader accepts it (not null).
    private static func schema(of shape: FieldShape) -> FieldValue {
        switch shape {
        case .any: item
        case .string: string
        case .number: number
        case .numberWithin(let bounds):
            ["type": "number", "minimum": .double(bounds.lowerBound), "maximum": .double(bounds.upperBound)]
        case .integer: ["type": "integer", "minimum": .int(.min), "maximum": .int(.max)]
        case .boolean: boolean
        case .choice(let names): enumeration(names)
        case .numbers(let names, let magnitude):
            oneOf([
                object(keys(names, bounded(magnitude)), required: names),
                [
                    "type": "array", "items": bounded(magnitude), "minItems": .int(Int64(names.count)),
                    "maxItems": .int(Int64(names.count)),
                ],
            ])
        case .list(let element): ["type": "array", "items": schema(of: element)]
        case .mapping: fields
        case .mappingOf(let value): ["type": "object", "additionalProperties": schema(of: value)]
        }
    }

    /// A finite number, at most `magnitude` from 0 when one is given.
    private static func bounded(_ magnitude: Double?) -> FieldValue {
        magnitude.map { ["type": "number", "minimum": .double(-$0), "maximum": .double($0)] } ?? number
    }

    /// Each of a payload's fields, of its shape.
    private static func properties(of payload: PayloadFields) -> [String: FieldValue] {
        Dictionary(uniqueKeysWithValues: payload.fields.map { ($0.name, schema(of: $0.shape)) })
    }

    private static func keys(_ names: [String], _ schema: FieldValue) -> [String: FieldValue] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, schema) })
    }

    /// A number of `type` (`integer` or `number`) within `limits`.
    private static func range(_ limits: ClosedRange<Int>, type: String) -> FieldValue {
        ["type": .string(type), "minimum": .int(Int64(limits.lowerBound)), "maximum": .int(Int64(limits.upperBound))]
    }

    private static func pair(_ item: FieldValue) -> FieldValue {
        ["type": "array", "items": item, "minItems": 2, "maxItems": 2]
    }

    /// A mapping of paths (`title.frame.y`) to values.
    private static func paths(value: FieldValue) -> FieldValue {
        [
            "type": "object", "minProperties": 1, "propertyNames": ["pattern": #"^[^.\s]+(\.[^.\s]+)*$"#],
            "additionalProperties": value,
        ]
    }

    private static func object(_ properties: [String: FieldValue], required: [String] = [], extra: Fields = [:]) -> FieldValue {
        var schema: Fields = ["type": "object", "properties": .dictionary(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map(FieldValue.string)) }
        schema.merge(extra) { $1 }
        return .dictionary(schema)
    }

    /// Exactly one of `schemas` (they must not overlap).
    private static func oneOf(_ schemas: [FieldValue]) -> FieldValue {
        ["oneOf": .array(schemas)]
    }

    /// One or more of `schemas`.
    private static func anyOf(_ schemas: [FieldValue]) -> FieldValue {
        ["anyOf": .array(schemas)]
    }

    /// `schema`, or null: in a mapping the loader reads as fields, a null is an absent key.
    private static func nullable(_ schema: FieldValue) -> FieldValue {
        anyOf([schema, ["type": "null"]])
    }

    private static func enumeration(_ names: [String]) -> FieldValue {
        ["enum": .array(names.map(FieldValue.string))]
    }
}
