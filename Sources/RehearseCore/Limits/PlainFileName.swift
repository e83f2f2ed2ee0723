/// A name someone gives that becomes a file name (a snapshot's picture, a recording): ASCII
/// letters, digits, `.`, `_` and `-`, ``ScenarioLimits/fileNameLength`` of them, not starting with
/// `.`, so that it can never be a path, a hidden file or `..`. The loader, `Record` and the JSON
/// Schema all use this one rule.
public enum PlainFileName {
    /// The rule in words, for error messages.
    public static let rule =
        "\(ScenarioLimits.fileNameLength.lowerBound) to \(ScenarioLimits.fileNameLength.upperBound) "
        + "of A-Z a-z 0-9 . _ -, not starting with '.'"

    /// The rule as a regular expression (ECMA 262, for the JSON Schema).
    public static let pattern =
        "^[A-Za-z0-9_-][A-Za-z0-9._-]{\(ScenarioLimits.fileNameLength.lowerBound - 1),"
        + "\(ScenarioLimits.fileNameLength.upperBound - 1)}$"

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool {
        ScenarioLimits.fileNameLength.contains(name.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            }
    }
}
