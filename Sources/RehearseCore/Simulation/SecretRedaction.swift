/// Secrets follow the text: what was typed into a secure field is redacted wherever it goes, not
/// only in the `text` event that typed it. A plugin event (`login.submit`, or any other) whose
/// string fields carry a secure field's text, whatever role the plugin gave that field, carries
/// ``Redaction/placeholder`` instead: subscribers, traces, D-Bus signals, viewer frames and
/// recordings alike never see it.
extension Scene {
    /// The texts of the secure fields now, the empty ones left out (nothing to hide).
    var secureTexts: [String] {
        allIDs.compactMap { id in read(id) { $0.secure && !$0.text.isEmpty ? $0.text : nil } ?? nil }
    }
}

extension FieldValue {
    /// This value with every string that contains one of the secrets `secrets` finds replaced whole
    /// by the placeholder, however deep; nil when nothing had to change.
    func redacting(_ secrets: SecretMatcher) -> FieldValue? {
        switch self {
        case .string(let text):
            return secrets.matches(text) ? .string(Redaction.placeholder) : nil
        case .array(let items):
            let redacted = items.map { $0.redacting(secrets) }
            guard redacted.contains(where: { $0 != nil }) else { return nil }
            return .array(zip(items, redacted).map { $1 ?? $0 })
        case .dictionary(let fields):
            return Self.redacting(fields, secrets).map(FieldValue.dictionary)
        case .bool, .int, .double:
            return nil
        }
    }

    /// `fields` with ``redacting(_:)`` applied to each value; nil when nothing had to change.
    static func redacting(_ fields: Fields, _ secrets: SecretMatcher) -> Fields? {
        guard !secrets.isEmpty else { return nil }
        var changed = false
        var result = fields
        for (key, value) in fields {
            if let redacted = value.redacting(secrets) {
                result[key] = redacted
                changed = true
            }
        }
        return changed ? result : nil
    }
}

extension Simulation {
    /// `event` with what was typed into the scene's secure fields redacted, if it is a plugin
    /// event (built-in events carry no typed text but `text`'s, which is redacted as it is typed).
    public func redactingSecrets(_ event: Event) -> Event {
        guard case .custom(let name, let fields) = event else { return event }
        return FieldValue.redacting(fields, SecretMatcher(scene.secureTexts)).map { .custom(name: name, fields: $0) } ?? event
    }
}

extension Simulation {
    /// `text` with every secure field's text in it, as typed or as JSON quotes it, replaced by the
    /// placeholder: for what a scenario's own words put beside a secret (a failing expectation's
    /// expected value, an event expectation's fields), which reports show.
    public func redactingSecrets(in text: String) -> String {
        let secrets = scene.secureTexts.flatMap { [$0, String(FieldValue.string($0).jsonText.dropFirst().dropLast())] }
        return secrets.sorted { $0.count > $1.count }.reduce(text) { $0.replacing($1, with: Redaction.placeholder) }
    }
}
