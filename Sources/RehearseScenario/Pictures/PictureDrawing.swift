import Foundation
import RehearseCore

/// What a golden picture records and compares: the drawing of the scene at one moment, element by
/// element, as ``SVGScreen`` draws it (kind, frame on screen, text with a secure field's as dots,
/// first responder, alpha, clip, stroke, order), not pixels, so a comparison is exact where it
/// should be and immune to font rasterisation. Numbers are kept to a thousandth of a point.
public struct PictureDrawing: Codable, Equatable, Sendable {
    /// One drawn node.
    public struct Element: Codable, Equatable, Sendable {
        public var id: String
        public var kind: NodeKind
        /// `[x, y, width, height]` on screen.
        public var frame: [Double]
        /// The text drawn (a secure field's as one dot a character, never its text).
        public var text: String
        /// Whether it is the first responder (drawn with a blue outline).
        public var focused: Bool
        public var alpha: Double
        /// The area scroll-view ancestors clip it to, `[x, y, width, height]`.
        public var clip: [Double]?
        /// For shapes: the stroked part of the line, `[start, end]`.
        public var stroke: [Double]?
        /// True for a screen of its own (a direct child of the root, which a large view captions with its id).
        public var screen: Bool?
    }

    /// `[width, height]`.
    public var screen: [Double]
    public var statusBar: Double
    /// The keyboard's frame on screen while it is up or moving.
    public var keyboard: [Double]?
    /// Back to front, the root left out (it is the screen).
    public var elements: [Element]

    /// A drawing of nothing on a screen of no size.
    static let empty = PictureDrawing(screen: [0, 0], statusBar: 0, keyboard: nil, elements: [])

    private init(screen: [Double], statusBar: Double, keyboard: [Double]?, elements: [Element]) {
        self.screen = screen
        self.statusBar = statusBar
        self.keyboard = keyboard
        self.elements = elements
    }

    /// The drawing of `snapshot`.
    public init(_ snapshot: SceneSnapshot) {
        screen = [snapshot.screen.width, snapshot.screen.height].map(Self.kept)
        statusBar = Self.kept(snapshot.statusBarHeight)
        keyboard = snapshot.keyboard.map(Self.numbers)
        elements = snapshot.items.filter { $0.id != Scene.rootID }.map { item in
            Element(
                id: item.id, kind: item.kind, frame: Self.numbers(item.frame), text: item.text, focused: item.isFirstResponder,
                alpha: Self.kept(item.alpha), clip: item.clip.map(Self.numbers),
                stroke: item.kind == .shape ? [item.stroke.lowerBound, item.stroke.upperBound].map(Self.kept) : nil,
                screen: item.isScreen ? true : nil)
        }
    }

    /// The scene this drawing records, to draw it again (a reference in a report) with ``SVGScreen``.
    /// A frame or clip that is not four numbers is drawn as nothing.
    public var snapshot: SceneSnapshot {
        func rect(_ numbers: [Double]?) -> Rect? {
            guard let numbers, numbers.count == 4 else { return nil }
            return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        let items = elements.map { element in
            let stroke = element.stroke.flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil } ?? 0...1
            return SceneSnapshot.Item(
                id: element.id, kind: element.kind, frame: rect(element.frame) ?? Rect(x: 0, y: 0, width: 0, height: 0),
                alpha: element.alpha, text: element.text, isFirstResponder: element.focused, stroke: stroke,
                clip: rect(element.clip), isScreen: element.screen == true)
        }
        let size = screen.count == 2 ? Size(width: screen[0], height: screen[1]) : Size(width: 0, height: 0)
        return SceneSnapshot(time: .zero, screen: size, statusBarHeight: statusBar, keyboard: rect(keyboard), items: items)
    }

    /// The reference file's text: JSON with sorted keys, one element a line, so that a change to a
    /// reference reads well in a diff.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = Self.nonFinite
        func line<Value: Encodable>(_ value: Value) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        var header = [#""screen": \#(line(screen))"#, #""statusBar": \#(line(statusBar))"#]
        if let keyboard { header.append(#""keyboard": \#(line(keyboard))"#) }
        let elements = self.elements.map { "    " + line($0) }.joined(separator: ",\n")
        return "{\n  " + header.joined(separator: ",\n  ") + ",\n  \"elements\": [\n" + elements + (elements.isEmpty ? "" : "\n")
            + "  ]\n}\n"
    }

    /// Reads a reference file's text.
    public init(json data: Data) throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = Self.nonFiniteDecoding
        self = try decoder.decode(Self.self, from: data)
        guard elements.count <= ScenarioLimits.nodes else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "more than \(ScenarioLimits.nodes) elements"))
        }
        try checkCounts()
    }

    /// Refuses a list of numbers of another length than its kind's (`screen` and `stroke` 2, a
    /// frame, `clip` and `keyboard` 4), naming it but not echoing it: a malformed reference cannot
    /// grow a failure message, nor hide an element from the diff picture.
    private func checkCounts() throws {
        var lists: [(String, [Double]?, Int)] = [("screen", screen, 2), ("keyboard", keyboard, 4)]
        for (index, element) in elements.enumerated() {
            let path = "elements[\(index)]."
            lists += [(path + "frame", element.frame, 4), (path + "clip", element.clip, 4), (path + "stroke", element.stroke, 2)]
        }
        for (path, numbers, count) in lists {
            guard let numbers, numbers.count != count else { continue }
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "\(path) holds \(numbers.count) numbers, not \(count)"))
        }
    }

    /// A plugin may put a node at NaN or infinity: written as these strings, as JSON has no such numbers.
    private static let nonFinite = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    private static let nonFiniteDecoding = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    private static func numbers(_ rect: Rect) -> [Double] {
        [rect.minX, rect.minY, rect.size.width, rect.size.height].map(kept)
    }

    /// `value` to a thousandth (references hold no rounding noise).
    private static func kept(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == 0 ? 0 : rounded
    }
}
