/// The names of a `CaseIterable` enum of strings (a plugin configuration's `axis`, a curve), found
/// from its type alone: what ``FieldValueDecoder`` lists when a value is none of them, and what the
/// JSON Schema's `enum` lists for a plugin's configuration key.
public enum CaseNames {
    /// The raw values of `type`'s cases in declaration order, or nil when it is not a
    /// `CaseIterable` enum with `String` raw values.
    public static func of(_ type: Any.Type) -> [String]? {
        guard let enumeration = type as? any CaseIterable.Type else { return nil }
        return names(enumeration)
    }

    private static func names<Enumeration: CaseIterable>(_ type: Enumeration.Type) -> [String]? {
        let names = Enumeration.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
        return names.isEmpty || names.count != Enumeration.allCases.count ? nil : names
    }
}

extension CaseNames {
    /// Every enum-of-strings property of `value` (a configuration's defaults), by dotted path
    /// (`transition`, `authenticator.mode`), with its case names; nested structures and present
    /// optionals are looked into, as their field form nests them.
    public static func choices(in value: Any) -> [String: [String]] {
        var found: [String: [String]] = [:]
        var pending: [(prefix: String, value: Any)] = [("", value)]
        while let (prefix, value) = pending.popLast() {
            for child in Mirror(reflecting: value).children {
                guard let label = child.label else { continue }
                let path = prefix + label
                var inner = child.value
                let mirror = Mirror(reflecting: inner)
                if mirror.displayStyle == .optional {
                    guard let wrapped = mirror.children.first?.value else { continue }
                    inner = wrapped
                }
                if let names = of(type(of: inner)) {
                    found[path] = names
                } else if Mirror(reflecting: inner).displayStyle == .struct {
                    pending.append((path + ".", inner))
                }
            }
        }
        return found
    }
}
