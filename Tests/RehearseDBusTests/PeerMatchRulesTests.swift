import Testing

@testable import RehearseDBusInterface
@testable import RehearseDBusService

/// The match rules a `--listen` peer keeps: read as the D-Bus specification writes them, and
/// taking the signals a bus would send it.
struct PeerMatchRulesTests {
    private let event = (path: "/org/rehearse/Simulator", interface: "org.rehearse.Simulator1", member: "Event")

    private func takes(_ rules: [String], path: String? = nil, member: String? = nil) throws -> Bool {
        var kept = PeerMatchRules()
        for rule in rules { try kept.add(rule) }
        return kept.take(
            PeerMatchRules.SignalKind(path: path ?? event.path, interface: event.interface, member: member ?? event.member))
    }

    @Test func aPeerWithNoRuleGetsNoSignal() throws {
        #expect(try !takes([]))
    }

    @Test func theCheckedKeysPickTheSignals() throws {
        #expect(try takes(["type='signal'"]))
        #expect(try takes(["type='signal',interface='org.rehearse.Simulator1',member='Event',path='/org/rehearse/Simulator'"]))
        #expect(try !takes(["type='method_call'"]))
        #expect(try !takes(["member='PropertiesChanged'"]))
        #expect(try !takes(["path='/org/rehearse/Simulator'"], path: "/org/rehearse/Simulator/sessions/0123"))
        #expect(try takes(["path_namespace='/org/rehearse'"], path: "/org/rehearse/Simulator/sessions/0123"))
        #expect(try !takes(["path_namespace='/org/rehearse/Sim'"]), "a namespace is whole path elements")
        // Keys that are not checked take more, never less, than on a bus.
        #expect(try takes(["type='signal',arg2='keyboard.willShow'"]))
    }

    @Test func valuesAreReadAsTheSpecificationWritesThem() throws {
        #expect(
            PeerMatchRules.Rule("member='it'\\''s',arg0='a,b'")?.values == ["member": "it's"], "unchecked keys are read, not kept"
        )
        #expect(PeerMatchRules.Rule("path='/a,b'")?.values == ["path": "/a,b"], "a comma inside quotes is the value's")
        #expect(PeerMatchRules.Rule("type=signal")?.values == ["type": "signal"], "a plain value")
        #expect(PeerMatchRules.Rule("member='Event") == nil, "an unclosed quote")
        #expect(PeerMatchRules.Rule("member") == nil)
        #expect(PeerMatchRules.Rule(String(repeating: "a", count: PeerMatchRules.maximumRuleBytes) + "=x") == nil)
    }

    /// Rules a bus would refuse are refused, so none takes more than it says. (Once,
    /// `type=signal,,member=x` was read with a key `,member` and took every signal, and
    /// `path_namespace=''` took every path.)
    @Test func malformedRulesAreRefused() {
        for text in [
            "type=signal,,member=x", "path_namespace=''", "member=''", "=x", "me mber=x", "member=a,member=b",
            "a='b'c'd",
        ] {
            #expect(PeerMatchRules.Rule(text) == nil, "\(text)")
        }
    }

    /// A rule's unknown keys are not kept: a rule costs a signal at most five comparisons however
    /// many keys it names, and a peer's decisions are kept per kind of signal. (Once, 512 rules
    /// of 190 unknown keys each held the service's thread for minutes.)
    @Test func unknownKeysAreNotKept() throws {
        let keys = (0..<100).map { "k\($0)='v'" }.joined(separator: ",")
        let rule = try #require(PeerMatchRules.Rule("member='nope'," + keys))
        #expect(rule.values == ["member": "nope"])
    }

    @Test func rulesAreRemovedOneAtATimeAndCapped() throws {
        var rules = PeerMatchRules()
        try rules.add("type='signal'")
        try rules.add("type='signal'")
        try rules.remove("type='signal'")
        let kind = PeerMatchRules.SignalKind(path: event.path, interface: event.interface, member: event.member)
        let before = rules.take(kind)
        #expect(before)
        try rules.remove("type='signal'")
        let after = rules.take(kind)
        #expect(!after, "a decision kept from before the change is dropped")
        #expect(throws: MethodFailure.self) { try rules.remove("type='signal'") }
        for _ in 0..<PeerMatchRules.maximumRules { try rules.add("member='Event'") }
        #expect { try rules.add("member='Event'") } throws: { ($0 as? MethodFailure)?.error == SimulatorError.limitsExceeded }
    }
}
