import Testing

@testable import RehearseCore

/// What redaction looks for: a secret anywhere in a string, in time linear in the string
/// (`SecretMatcher`), as `String.contains` would find it.
@Suite struct SecretMatcherTests {
    /// Random texts and secrets over a two-letter alphabet, where every overlap case of the
    /// Knuth–Morris–Pratt table comes up, agree with `String.contains` (ASCII: bytes are characters).
    @Test func findsWhatContainsFinds() {
        var random = SeededGenerator(seed: 47)
        for _ in 0..<5_000 {
            let secret = String((0..<Int.random(in: 1...6, using: &random)).map { _ in "ab".randomElement(using: &random)! })
            let text = String((0..<Int.random(in: 0...20, using: &random)).map { _ in "ab".randomElement(using: &random)! })
            #expect(SecretMatcher([secret]).matches(text) == text.contains(secret), "\(secret) in \(text)")
        }
    }

    @Test func anyOfSeveralSecretsMatchesAndAnEmptyOneNever() {
        let matcher = SecretMatcher(["hunter2", "", "🔑é"])
        #expect(matcher.matches("my hunter2 guess"))
        #expect(matcher.matches("a 🔑é here"))
        #expect(!matcher.matches("hunter"))
        #expect(!matcher.matches(""))
        #expect(SecretMatcher([""]).isEmpty)
    }

    /// The attack's F1: a plugin wrote 64 labels of 10,000 `a`s and a secret of 4,999 `a`s and a `b`,
    /// then read the labels on every call; `String.contains` took 35 s a call in a debug build. The
    /// scan is now 640,000 bytes for the one secret: milliseconds, bounded here at 2 s.
    @Test func aLongTextBesideALongSecretIsScannedOnce() {
        let matcher = SecretMatcher([String(repeating: "a", count: 4_999) + "b"])
        let label = String(repeating: "a", count: 10_000)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<64 { #expect(!matcher.matches(label)) }
        #expect(clock.now - start < .seconds(2))
    }
}
