@testable import RehearseDBus
import Testing

/// The match rules a `--listen` peer keeps: read as the D-Bus specification writes them, and
/// taking the signals a bus would send it.
struct PeerMatchRulesTests {
    private let event = (path: "/org/rehearse/Simulator", interface: "org.rehearse.Simulator1", member: "Event")

    private func takes(_ rules: [String], path: String? = nil, member: String? = nil) throws -> Bool {
        var kept = PeerMatchRules()
        for rule in rules { try kept.add(rule) }
        return kept.take(path: path ?? event.path, interface: event.interface, member: member ?? event.member)
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
        #expect(PeerMatchRules.Rule("member='Event',arg0='don'\\''t'")?.values == ["member": "Event", "arg0": "don't"])
        #expect(PeerMatchRules.Rule("arg0='a,b'")?.values == ["arg0": "a,b"], "a comma inside quotes is the value's")
        #expect(PeerMatchRules.Rule("member='Event") == nil, "an unclosed quote")
        #expect(PeerMatchRules.Rule("member") == nil)
        #expect(PeerMatchRules.Rule(String(repeating: "a", count: PeerMatchRules.maximumRuleBytes) + "=x") == nil)
    }

    @Test func rulesAreRemovedOneAtATimeAndCapped() throws {
        var rules = PeerMatchRules()
        try rules.add("type='signal'")
        try rules.add("type='signal'")
        try rules.remove("type='signal'")
        #expect(rules.take(path: event.path, interface: event.interface, member: event.member))
        try rules.remove("type='signal'")
        #expect(!rules.take(path: event.path, interface: event.interface, member: event.member))
        #expect(throws: MethodFailure.self) { try rules.remove("type='signal'") }
        for _ in 0..<PeerMatchRules.maximumRules { try rules.add("member='Event'") }
        #expect { try rules.add("member='Event'") } throws: { ($0 as? MethodFailure)?.name == SimulatorError.limitsExceeded }
    }
}
