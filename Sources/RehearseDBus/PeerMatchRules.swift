/// The match rules a peer asked for with `AddMatch` (`--listen` has no bus daemon to keep them):
/// a peer gets a signal only if one of its rules takes it, as a bus would send it. The keys that
/// pick the service's signals are checked (`type`, `sender`, `interface`, `member`, `path`,
/// `path_namespace`, `destination`); a rule's other keys (`argN`, `eavesdrop`, ...) are accepted
/// and not checked, so such a rule takes more, never less, than it would on a bus.
struct PeerMatchRules {
    /// The most rules one peer may hold, as dbus-daemon limits them per connection.
    static let maximumRules = 512
    /// The longest rule accepted, in bytes (the D-Bus specification's limit for a match rule).
    static let maximumRuleBytes = 1024

    /// One parsed rule: the value each checked key must have.
    struct Rule: Equatable {
        var values: [String: String] = [:]

        /// Reads `text` (`key='value',key2='value2'`, quotes optional, `\'` inside a quoted value
        /// as the specification has it); nil when it is not a rule.
        init?(_ text: String) {
            guard text.utf8.count <= PeerMatchRules.maximumRuleBytes else { return nil }
            var characters = Substring(text)
            while !characters.isEmpty {
                guard let equals = characters.firstIndex(of: "=") else { return nil }
                let key = characters[..<equals].trimmingLeadingSpaces()
                guard !key.isEmpty else { return nil }
                characters = characters[characters.index(after: equals)...]
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
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard !quoted else { return nil }
                values[key] = value
            }
        }

        /// Whether the rule takes a signal with these header fields.
        func takes(path: String, interface: String, member: String) -> Bool {
            for (key, value) in values {
                switch key {
                case "type": if value != "signal" { return false }
                case "interface": if value != interface { return false }
                case "member": if value != member { return false }
                case "path": if value != path { return false }
                case "path_namespace": if path != value, !path.hasPrefix(value == "/" ? "/" : value + "/") { return false }
                // The service sends its signals without a destination, and a peer has no bus
                // name to compare a sender with: a rule naming either is taken as the client meant it.
                default: continue
                }
            }
            return true
        }
    }

    private var rules: [Rule] = []

    /// Adds `text`'s rule; throws a named error for a malformed rule or past ``maximumRules``.
    mutating func add(_ text: String) throws(MethodFailure) {
        guard let rule = Rule(text) else {
            throw MethodFailure("org.freedesktop.DBus.Error.MatchRuleInvalid", "not a match rule: \(text.prefix(100))")
        }
        guard rules.count < Self.maximumRules else {
            throw MethodFailure(SimulatorError.limitsExceeded, "\(Self.maximumRules) match rules are set (the limit for a peer)")
        }
        rules.append(rule)
    }

    /// Removes one rule equal to `text`'s; throws `MatchRuleNotFound` when there is none.
    mutating func remove(_ text: String) throws(MethodFailure) {
        guard let rule = Rule(text), let index = rules.firstIndex(of: rule) else {
            throw MethodFailure("org.freedesktop.DBus.Error.MatchRuleNotFound", "no such match rule: \(text.prefix(100))")
        }
        rules.remove(at: index)
    }

    /// Whether any rule takes a signal with these header fields.
    func take(path: String, interface: String, member: String) -> Bool {
        rules.contains { $0.takes(path: path, interface: interface, member: member) }
    }
}

private extension Substring {
    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}
