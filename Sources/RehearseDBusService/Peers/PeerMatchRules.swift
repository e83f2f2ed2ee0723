import RehearseDBusInterface

/// The match rules a peer asked for with `AddMatch` (`--listen` has no bus daemon to keep them):
/// a peer gets a signal only if one of its rules takes it, as a bus would send it. The keys that
/// pick the service's signals are checked (`type`, `interface`, `member`, `path`,
/// `path_namespace`); the specification's other keys (`sender`, `destination`, `argN`,
/// `argNpath`, `arg0namespace`, `eavesdrop`) are read and not kept, so such a rule takes more,
/// never less, than it would on a bus, and a signal costs each rule at most five comparisons.
/// What a peer's rules decide for each kind of signal is kept until its rules change, so the
/// service's thread pays for the rules once per kind, not once per signal.
struct PeerMatchRules {
    /// The most rules one peer may hold, as dbus-daemon limits them per connection.
    static let maximumRules = 512
    /// The longest rule accepted, in bytes (the D-Bus specification's limit for a match rule).
    static let maximumRuleBytes = 1024

    /// One parsed rule: the value each checked key must have.
    struct Rule: Hashable {
        var values: [String: String] = [:]

        /// The keys that pick the service's signals.
        static let checkedKeys: Set<String> = ["type", "interface", "member", "path", "path_namespace"]

        /// Reads `text` as the specification writes a rule: `key='value'` pairs separated by
        /// commas, a key of letters, digits and `_`, a value quoted or plain, `\'` outside quotes
        /// for an apostrophe, each key once; nil when it is not a rule.
        init?(_ text: String) {
            guard text.utf8.count <= PeerMatchRules.maximumRuleBytes else { return nil }
            var seen: Set<String> = []
            var characters = Substring(text)
            while !characters.isEmpty {
                guard let equals = characters.firstIndex(of: "=") else { return nil }
                let key = String(characters[..<equals].drop { $0 == " " })
                guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
                    seen.insert(key).inserted
                else { return nil }
                characters = characters[characters.index(after: equals)...]
                guard let value = Self.value(&characters) else { return nil }
                if Self.checkedKeys.contains(key) {
                    guard !value.isEmpty else { return nil }
                    values[key] = value
                }
            }
        }

        /// The value at the start of `characters`, up to the comma that ends it (taken too).
        private static func value(_ characters: inout Substring) -> String? {
            var value = ""
            var quoted = false
            while let character = characters.first {
                characters.removeFirst()
                if character == "'" {
                    quoted.toggle()
                } else if character == "\\", !quoted, characters.first == "'" {
                    value.append("'")
                    characters.removeFirst()
                } else if character == ",", !quoted {
                    return value
                } else {
                    value.append(character)
                }
            }
            return quoted ? nil : value
        }

        /// Whether the rule takes a signal of this kind.
        func takes(_ kind: SignalKind) -> Bool {
            for (key, value) in values {
                switch key {
                case "type": if value != "signal" { return false }
                case "interface": if value != kind.interface { return false }
                case "member": if value != kind.member { return false }
                case "path": if value != kind.path { return false }
                case "path_namespace":
                    if kind.path != value, !kind.path.hasPrefix(value == "/" ? "/" : value + "/") { return false }
                default: continue
                }
            }
            return true
        }
    }

    /// What a rule can tell signals apart by.
    struct SignalKind: Hashable {
        let path: String
        let interface: String
        let member: String
    }

    private var rules: [Rule] = []
    /// What the rules decided for each kind of signal since they last changed.
    private var decisions: [SignalKind: Bool] = [:]

    /// Adds `text`'s rule; throws a named error for a malformed rule or past ``maximumRules``.
    mutating func add(_ text: String) throws(MethodFailure) {
        guard let rule = Rule(text) else {
            throw MethodFailure(.matchRuleInvalid, "not a match rule: \(text.prefix(100))")
        }
        guard rules.count < Self.maximumRules else {
            throw MethodFailure(SimulatorError.limitsExceeded, "\(Self.maximumRules) match rules are set (the limit for a peer)")
        }
        rules.append(rule)
        decisions.removeAll()
    }

    /// Removes one rule equal to `text`'s; throws `MatchRuleNotFound` when there is none.
    mutating func remove(_ text: String) throws(MethodFailure) {
        guard let rule = Rule(text), let index = rules.firstIndex(of: rule) else {
            throw MethodFailure(.matchRuleNotFound, "no such match rule: \(text.prefix(100))")
        }
        rules.remove(at: index)
        decisions.removeAll()
    }

    /// Whether any rule takes a signal of `kind`.
    mutating func take(_ kind: SignalKind) -> Bool {
        if let decided = decisions[kind] { return decided }
        let decided = rules.contains { $0.takes(kind) }
        decisions[kind] = decided
        return decided
    }
}
