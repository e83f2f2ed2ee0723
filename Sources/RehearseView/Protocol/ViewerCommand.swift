import Foundation
import RehearseCore

/// What a page asks of the simulation, decoded and checked from one WebSocket text message.
enum ViewerCommand: Equatable, Sendable {
    /// A tap at a point in screen coordinates, hit-tested by the simulation.
    case tap(Point)
    /// A finger's event (a mouse button held and moved, a real touch), in screen coordinates.
    case touch(TouchPhase, id: Int, Point)
    /// Fingers that moved at once (a ctrl-drag's two pinching fingers): one touch event.
    case moves([FingerMove])
    /// Text for the first responder.
    case text(String)
    case returnKey
    /// One motion sample: rotation rates in radians per second.
    case motion(Vector3)
    case rotate(Orientation)
    case keyboard(show: Bool)
    case network(online: Bool)
    /// A tap on the status bar (`statusBar.tap`: scrolls the one scroll view with `scrollsToTop` to its top).
    case statusBarTap
    case play, pause, step, restart
    case speed(Double)
    /// Show the loaded scenario's run at this time instead of the live simulation.
    case scrub(seconds: Double)
    /// Back to the live simulation.
    case live

    /// The longest message a page may send, in bytes (the WebSocket's frame limit too).
    static let maximumMessageSize = 4_096
    /// The most characters one `text` message types.
    static let maximumTextLength = 256
    /// The largest coordinate a tap may have, in points, either sign.
    static let maximumCoordinate = 100_000.0
    /// The largest rotation rate a motion sample may have, in radians per second, either sign.
    static let maximumRotationRate = 100.0

    /// The message as the page sends it: `{"type": "tap", "x": 10, "y": 20}` and so on.
    private struct Message: Decodable {
        /// One finger of a `moves` message.
        struct Finger: Decodable {
            var id, x, y: Double?
        }

        var type: String
        var x, y, z: Double?
        var phase: String?
        var id: Double?
        var touches: [Finger]?
        var text: String?
        var to: String?
        var show, online: Bool?
        var value: Double?
    }

    /// Decodes one message, or says what is wrong with it.
    init(json: String) throws(ViewerCommandError) {
        guard json.utf8.count <= Self.maximumMessageSize else {
            throw ViewerCommandError("a message has at most \(Self.maximumMessageSize) bytes")
        }
        let message: Message
        do {
            message = try JSONDecoder().decode(Message.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw ViewerCommandError("not a command: \(Self.reason(error))")
        } catch {
            throw ViewerCommandError("not a command: \(error)")
        }
        func number(_ value: Double?, _ name: String, limit: Double) throws(ViewerCommandError) -> Double {
            guard let value, value.isFinite, abs(value) <= limit else {
                throw ViewerCommandError("\(message.type) needs \(name), a number from -\(limit) to \(limit)")
            }
            return value
        }
        func finger(_ id: Double?, x: Double?, y: Double?) throws(ViewerCommandError) -> FingerMove {
            let ids = ScenarioLimits.touchIDs
            guard let id, let whole = Int(exactly: id), ids.contains(whole) else {
                throw ViewerCommandError("\(message.type) needs id, a whole number from \(ids.lowerBound) to \(ids.upperBound)")
            }
            return FingerMove(
                id: whole,
                point: Point(
                    x: try number(x, "x", limit: Self.maximumCoordinate),
                    y: try number(y, "y", limit: Self.maximumCoordinate)))
        }
        func flag(_ value: Bool?, _ name: String) throws(ViewerCommandError) -> Bool {
            guard let value else { throw ViewerCommandError("\(message.type) needs \(name): true or false") }
            return value
        }
        switch message.type {
        case "tap":
            self = .tap(
                Point(
                    x: try number(message.x, "x", limit: Self.maximumCoordinate),
                    y: try number(message.y, "y", limit: Self.maximumCoordinate)))
        case "touch":
            guard let phase = message.phase.flatMap(TouchPhase.init(rawValue:)) else {
                throw ViewerCommandError("touch needs phase: \(TouchPhase.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let moved = try finger(message.id, x: message.x, y: message.y)
            self = .touch(phase, id: moved.id, moved.point)
        case "moves":
            let most = GestureRules.maximumTouches
            guard let touches = message.touches, (1...most).contains(touches.count) else {
                throw ViewerCommandError("moves needs touches, a list of 1 to \(most) {id, x, y}")
            }
            var moves: [FingerMove] = []
            for touch in touches { moves.append(try finger(touch.id, x: touch.x, y: touch.y)) }
            self = .moves(moves)
        case "text":
            guard let text = message.text, !text.isEmpty, text.count <= Self.maximumTextLength else {
                throw ViewerCommandError("text needs text, 1 to \(Self.maximumTextLength) characters")
            }
            self = .text(text)
        case "return": self = .returnKey
        case "motion":
            let limit = Self.maximumRotationRate
            self = .motion(
                Vector3(
                    x: try number(message.x, "x", limit: limit), y: try number(message.y, "y", limit: limit),
                    z: try number(message.z ?? 0, "z", limit: limit)))
        case "rotate":
            guard let to = message.to, let orientation = Orientation(rawValue: to) else {
                throw ViewerCommandError("rotate needs to: portrait, portraitUpsideDown, landscapeLeft or landscapeRight")
            }
            self = .rotate(orientation)
        case "keyboard": self = .keyboard(show: try flag(message.show, "show"))
        case "network": self = .network(online: try flag(message.online, "online"))
        case "statusBarTap": self = .statusBarTap
        case "play": self = .play
        case "pause": self = .pause
        case "step": self = .step
        case "restart": self = .restart
        case "speed":
            let rates = RealtimePacer.rates
            guard let value = message.value, rates.contains(value) else {
                throw ViewerCommandError("speed needs value, from \(rates.lowerBound) to \(rates.upperBound)")
            }
            self = .speed(value)
        case "scrub": self = .scrub(seconds: max(try number(message.value, "value", limit: 1e6), 0))
        case "live": self = .live
        default: throw ViewerCommandError("unknown command '\(message.type)'")
        }
    }
}

extension ViewerCommand {
    /// Why JSON is no command, in the page's own terms (`touches[0].x must be a number`) rather
    /// than Swift's `DecodingError` description, which names types and coding keys.
    fileprivate static func reason(_ error: DecodingError) -> String {
        func place(_ context: DecodingError.Context) -> String {
            context.codingPath.reduce(into: "") { place, key in
                if let index = key.intValue {
                    place += "[\(index)]"
                } else {
                    place += (place.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        func kind(_ type: Any.Type) -> String {
            let kinds: [(type: Any.Type, name: String)] = [
                (Double.self, "a number"), (String.self, "a string"), (Bool.self, "true or false"), ([Any].self, "a list"),
            ]
            return kinds.first { $0.type == type }?.name ?? "an object"
        }
        /// `place must be KIND`, the whole message named as such (and shown an example of).
        func mustBe(_ type: Any.Type, _ context: DecodingError.Context) -> String {
            let at = place(context)
            return at.isEmpty
                ? #"the message must be an object like {"type": "tap", "x": 10, "y": 20}"# : at + " must be " + kind(type)
        }
        switch error {
        case .typeMismatch(let type, let context):
            return mustBe(type, context)
        case .valueNotFound(let type, let context):
            return mustBe(type, context) + ", not null"
        case .keyNotFound(let key, let context):
            let at = place(context)
            return (at.isEmpty ? "" : at + " ") + "needs " + key.stringValue
        case .dataCorrupted(let context):
            let at = place(context)
            return at.isEmpty
                ? "not JSON that can be read (a syntax error, a number out of range, or lists nested too deep)"
                : at + " is not valid"
        @unknown default:
            return "not valid"
        }
    }
}

/// A page's finger moved to a point in screen coordinates, one of a `moves` message.
struct FingerMove: Equatable, Sendable {
    var id: Int
    var point: Point
}

/// Why a page's message was not taken.
struct ViewerCommandError: Error, Equatable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
