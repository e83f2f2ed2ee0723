import Foundation
import Testing

@testable import RehearseCommand

/// `run --filter`'s matcher (issue 36): what a regular expression matches, plain text for what is
/// not one, and time linear in the name whatever the pattern.
@Suite struct NamePatternTests {
    private func matches(_ pattern: String, _ subject: String) throws -> Bool {
        try NamePattern(pattern).matches(subject)
    }

    @Test func expressionsMatchAnywhereAsExtendedRegularExpressionsDo() throws {
        let cases: [(String, String, Bool)] = [
            ("keyboard", "Scenarios/core/keyboard-follows-focus.yaml", true),
            ("Keyboard", "Scenarios/core/keyboard-follows-focus.yaml", false),  // case-sensitive
            ("^Scenarios/core/", "Scenarios/core/x.yaml", true),
            ("^core/", "Scenarios/core/x.yaml", false),
            (#"\.yml$"#, "a.yaml", false),
            (#"\.ya?ml$"#, "a.yml", true),
            ("log(in|out)", "logout", true),
            ("(?:ab)+c", "xababc", true),
            ("a{2,3}b", "ab", false),
            ("a{2,3}b", "aab", true),
            ("a{2,}b", "aaaaab", true),
            ("x{2}", "xx", true),
            (#"[^/]+\.yaml$"#, "dir/file.yaml", true),
            (#"\d\d"#, "step 12", true),
            (#"\d\d"#, "step 1", false),
            (#"\w+\s\w+"#, "two words", true),
            (#"[\d-]+"#, "--", true),
            ("[]a]", "]", true),
            ("a.c", "abc", true),
            ("a.c", "ac", false),
            ("(a*)*$", "b", true),  // empty loops end
            ("", "", false),
        ]
        for (pattern, subject, expected) in cases where !pattern.isEmpty {
            #expect(try matches(pattern, subject) == expected, "\(pattern) on \(subject)")
            #expect(try NamePattern(pattern).isRegularExpression, "\(pattern)")
        }
    }

    @Test func whatIsNotAnExpressionIsPlainText() throws {
        for pattern in ["login(", "a)", "*start", "a{2", "a{3,1}", #"\q"#, "[z-a]", "a**", "(?x)"] {
            #expect(try !NamePattern(pattern).isRegularExpression, "\(pattern)")
        }
        #expect(try matches("login(", "the login( screen"))
        #expect(try !matches("login(", "login"))
    }

    @Test func theLimitsAreRefusedByName() {
        #expect(throws: (any Error).self) { try NamePattern("") }
        #expect(throws: (any Error).self) { try NamePattern(String(repeating: "a", count: NamePattern.maximumLength + 1)) }
        #expect(throws: (any Error).self) { try NamePattern("(a{500}){3}") }
        #expect(throws: Never.self) { try NamePattern("a{998}") }
    }

    /// Each costs a backtracking matcher about 2^n steps on n characters; here the machine reads
    /// the first 4,096 characters (where `$` does not match, the text going on) against a few
    /// dozen instructions: together about 0.2 s in a debug build. 2 s bounds them.
    @Test func catastrophicExpressionsTakeLinearTime() throws {
        let long = String(repeating: "a", count: 100_000) + "!"
        let start = ContinuousClock.now
        for pattern in ["(a+)+$", "(a|aa)*$", "(a*)*b", "(a|a)*!x", "(.*a){20}z"] {
            #expect(try !matches(pattern, long), "\(pattern)")
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    /// The most a match can cost: nearly the most instructions, nearly every one a thread at every
    /// character of the longest name matched. About 1.5 s in a debug build (0.1 s in a release
    /// build); 15 s bounds it.
    @Test func theLargestExpressionOnTheLongestNameTakesBoundedTime() throws {
        let pattern = try NamePattern("((a{0,20}){0,23})*c")
        let start = ContinuousClock.now
        #expect(!pattern.matches(String(repeating: "a", count: 100_000)))
        #expect(ContinuousClock.now - start < .seconds(15))
    }
}
