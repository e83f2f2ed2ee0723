import RehearseCore
import Testing

@testable import RehearseView

@Suite struct ViewerCommandTests {
    @Test func eachCommandDecodes() throws {
        let cases: [(String, ViewerCommand)] = [
            (#"{"type":"tap","x":20.5,"y":270}"#, .tap(Point(x: 20.5, y: 270))),
            (#"{"type":"text","text":"é"}"#, .text("é")),
            (#"{"type":"return"}"#, .returnKey),
            (#"{"type":"motion","x":0.5,"y":-3}"#, .motion(Vector3(x: 0.5, y: -3, z: 0))),
            (#"{"type":"rotate","to":"landscapeLeft"}"#, .rotate(.landscapeLeft)),
            (#"{"type":"keyboard","show":false}"#, .keyboard(show: false)),
            (#"{"type":"network","online":true}"#, .network(online: true)),
            (#"{"type":"statusBarTap"}"#, .statusBarTap),
            (#"{"type":"speed","value":0.25}"#, .speed(0.25)),
            (#"{"type":"scrub","value":-1}"#, .scrub(seconds: 0)),
            (#"{"type":"live"}"#, .live),
            (#"{"type":"touch","phase":"moved","id":2,"x":10,"y":300.5}"#, .touch(.moved, id: 2, Point(x: 10, y: 300.5))),
            (
                #"{"type":"moves","touches":[{"id":0,"x":10,"y":20},{"id":1,"x":30.5,"y":20}]}"#,
                .moves([FingerMove(id: 0, point: Point(x: 10, y: 20)), FingerMove(id: 1, point: Point(x: 30.5, y: 20))])
            ),
        ]
        for (json, command) in cases { #expect(try ViewerCommand(json: json) == command, "\(json)") }
    }

    /// Every number, length and name a page sends has a limit, and a message over it says which.
    @Test func outOfLimitsMessagesSayWhatIsWrong() {
        let cases: [(String, String)] = [
            (#"{"type":"tap","x":1e6,"y":0}"#, "tap needs x, a number from -100000.0 to 100000.0"),
            (#"{"type":"tap","y":0}"#, "tap needs x"),
            (#"{"type":"motion","x":101,"y":0}"#, "motion needs x, a number from -100.0 to 100.0"),
            (#"{"type":"text","text":""}"#, "text needs text, 1 to 256 characters"),
            (#"{"type":"rotate","to":"sideways"}"#, "rotate needs to: portrait"),
            (#"{"type":"speed","value":1000}"#, "speed needs value, from 0.01 to 100.0"),
            (#"{"type":"keyboard"}"#, "keyboard needs show: true or false"),
            (#"{"type":"fly"}"#, "unknown command 'fly'"),
            (#"{"type":"touch","phase":"pressed","id":0,"x":1,"y":1}"#, "touch needs phase: began, moved, ended, cancelled"),
            (#"{"type":"touch","phase":"began","id":1000,"x":1,"y":1}"#, "touch needs id, a whole number from 0 to 999"),
            (#"{"type":"touch","phase":"began","id":0.5,"x":1,"y":1}"#, "touch needs id, a whole number from 0 to 999"),
            (#"{"type":"touch","phase":"began","id":1e300,"x":1,"y":1}"#, "touch needs id, a whole number from 0 to 999"),
            (#"{"type":"touch","phase":"began","id":0,"x":1e6,"y":1}"#, "touch needs x, a number from -100000.0 to 100000.0"),
            (#"{"type":"moves","touches":[]}"#, "moves needs touches, a list of 1 to 10 {id, x, y}"),
            (#"{"type":"moves"}"#, "moves needs touches, a list of 1 to 10 {id, x, y}"),
            (
                #"{"type":"moves","touches":[{"id":0,"x":1,"y":1},{"id":1,"x":1,"y":1},{"id":2,"x":1,"y":1},{"id":3,"x":1,"y":1},{"id":4,"x":1,"y":1},{"id":5,"x":1,"y":1},{"id":6,"x":1,"y":1},{"id":7,"x":1,"y":1},{"id":8,"x":1,"y":1},{"id":9,"x":1,"y":1},{"id":10,"x":1,"y":1}]}"#,
                "moves needs touches, a list of 1 to 10 {id, x, y}"
            ),
            (#"{"type":"moves","touches":[{"id":-1,"x":1,"y":1}]}"#, "moves needs id, a whole number from 0 to 999"),
            (#"{"type":"moves","touches":[{"id":0,"x":1}]}"#, "moves needs y, a number from -100000.0 to 100000.0"),
            ("[1, 2]", "not a command: the message must be an object like"),
            // A value of the wrong type names its place, not Swift's `DecodingError` (the
            // attack on the last stop found `moves` with a string answered in Swift's terms).
            (#"{"type":"moves","touches":[{"id":0,"x":"1","y":1}]}"#, "not a command: touches[0].x must be a number"),
            (#"{"type":"keyboard","show":"yes"}"#, "not a command: show must be true or false"),
            (#"{"type":"moves","touches":{"id":0}}"#, "not a command: touches must be a list"),
            (#"{"type":"tap","x":null,"y":1,"type2":1}"#, "tap needs x"),
            (#"{"x":1}"#, "not a command: needs type"),
            (#"{"type":"tap""#, "not a command: not JSON"),
            ("null", #"not a command: the message must be an object like {"type": "tap", "x": 10, "y": 20}, not null"#),
            (#"{"type":"moves","touches":[5]}"#, "not a command: touches[0] must be an object"),
            (String(repeating: " ", count: 5_000) + "{}", "a message has at most 4096 bytes"),
        ]
        for (json, message) in cases {
            #expect(throws: ViewerCommandError.self) { try ViewerCommand(json: json) }
            do {
                _ = try ViewerCommand(json: json)
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    @Test func addressesParseWithTheirHostsAndPorts() {
        #expect(ViewerAddress("127.0.0.1:8080") == ViewerAddress(host: "127.0.0.1", port: 8080))
        #expect(ViewerAddress("[::1]:0") == ViewerAddress(host: "::1", port: 0))
        #expect(ViewerAddress("[::1]:0")?.description == "[::1]:0")
        #expect(ViewerAddress("0.0.0.0:80")?.isLoopback == false)
        #expect(ViewerAddress("localhost:9")?.isLoopback == true)
        for bad in ["8080", ":8080", "host:", "host:70000", "a b:1", "h/x:1"] { #expect(ViewerAddress(bad) == nil, "\(bad)") }
    }
}
