import Testing

@testable import RehearseCore

/// The form of each event field's value, which the JSON Schema checks: a built-in payload's from
/// its declaration, a plugin event's found from its `Decodable` type.
@Suite struct FieldShapeTests {
    enum Mood: String, CaseIterable, Codable { case calm, shaken }
    struct Place: Hashable, Codable { var x: Double }

    struct Probed: PluginEvent, Codable {
        static let name = "probe.sample"
        static let fieldSummary = "label, level, count, on, mood, note?, place"
        static let summary = "a sample with a field of each form"
        var label: String
        var level: Double
        var count: Int
        var on: Bool
        var mood: Mood
        var note: String?
        var place: Place
    }

    @Test func aPluginEventsFieldsGetTheFormsOfTheirTypes() {
        #expect(
            Probed.fieldShapes == [
                "label": .string, "level": .number, "count": .integer, "on": .boolean, "mood": .choice(["calm", "shaken"]),
                "note": .string, "place": .any,
            ])
    }

    /// A field after one the probe cannot stand in for (a set) is not found, so not checked by form.
    @Test func aFieldOfAnotherTypeEndsTheProbeWithoutAFalseShape() {
        struct Listed: Decodable {
            var first: String
            var items: Set<String>
            var last: Bool
        }
        #expect(FieldShapeProbe.shapes(of: Listed.self) == ["first": .string, "items": .any])
    }

    @Test func aBuiltinPayloadsShapesComeFromItsDeclaration() {
        #expect(BuiltinEvent.tap.fieldShapes == ["x": .number, "y": .number, "target": .string, "isControl": .boolean])
        #expect(BuiltinEvent.gesturePan.fieldShapes["state"] == .choice(GestureState.allCases.map(\.rawValue)))
        #expect(BuiltinEvent.touchBegan.fieldShapes["id"] == .integer)
        // A keyboard's frames and duration as its payload's reader bounds them.
        #expect(
            BuiltinEvent.keyboardWillShow.fieldShapes["frame"]
                == .numbers(["x", "y", "width", "height"], magnitude: ScenarioLimits.deviceLength))
        #expect(BuiltinEvent.keyboardWillShow.fieldShapes["duration"] == .numberWithin(0...ScenarioLimits.runSeconds))
        #expect(BuiltinEvent.motion.fieldShapes["attitude"] == .numbers(["roll", "pitch", "yaw"]))
        // The most a gesture's velocity may be, which the simulation checks on injection.
        #expect(
            BuiltinEvent.gesturePan.fieldShapes["velocity"] == .numbers(["x", "y"], magnitude: ScenarioLimits.gestureVelocity))
    }
}
