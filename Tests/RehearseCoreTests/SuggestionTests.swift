import Foundation
import RehearseCore
import Testing

/// The one nearest-name helper every "did you mean" in Rehearse uses.
@Suite struct SuggestionTests {
    /// A swap of two neighbouring letters is one edit, as a misspelling is one slip of the finger.
    @Test func aSwapOfNeighboursIsOneEdit() {
        #expect(Suggestion.distance("feild", "field") == 1)
        #expect(Suggestion.distance("tapp", "tap") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3)
    }

    /// Up to a third of the name's length in edits (at least one); a name shorter than three letters
    /// only for one with a letter dropped.
    @Test func onlyLikelyTyposAreSuggested() {
        #expect(Suggestion.closest(to: "tapp", among: ["tap", "text", "focus"]) == "tap")
        #expect(Suggestion.closest(to: "titel", among: ["title", "username"]) == "title")
        #expect(Suggestion.closest(to: "z", among: ["x", "y"]) == nil)
        #expect(Suggestion.closest(to: "bx", among: ["box", "field"]) == "box")
        #expect(Suggestion.closest(to: "zebra", among: ["tap", "text"]) == nil)
        #expect(Suggestion.hint(for: "fcus", among: ["focus"]) == " (did you mean 'focus'?)")
    }

    /// Issue 25's attack: a name is never suggested as its own correction (`firstResponder.x`
    /// named 'firstResponder' as the nearest to itself).
    @Test func aNameIsNeverItsOwnSuggestion() {
        #expect(Suggestion.closest(to: "firstResponder", among: ["firstResponder", "keyboard"]) == nil)
        #expect(Suggestion.closest(to: "title", among: ["Title", "title"]) == "Title")
    }

    /// Issue 25's attack: a 30,000-letter id one letter off a node's took 53 s to answer; names
    /// past `maximumNameLength` get no suggestion, and candidates far off in length or past the
    /// limit are given up early. A thousand long candidates against a long name take under a second
    /// of this thread's CPU in a debug build; the bound is 20 times that, and counts this thread's
    /// CPU time, not the wall clock, so other programs on a busy machine cannot make it fail (with
    /// 10,000 candidates and the wall clock, it took 14.8 s against 10 while a build and a fuzzer ran).
    @Test func longNamesAndManyCandidatesAreAnsweredQuickly() {
        let long = String(repeating: "a", count: 30_000)
        #expect(Suggestion.closest(to: long + "b", among: [long]) == nil)
        let candidates = (0..<1_000).map { String(repeating: "q", count: 63) + String($0 % 10) }
        let start = Self.threadCPUSeconds()
        #expect(Suggestion.closest(to: String(repeating: "z", count: 64), among: candidates) == nil)
        #expect(Self.threadCPUSeconds() - start < 10)
    }

    /// The CPU time this thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
