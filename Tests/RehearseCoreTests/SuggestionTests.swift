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
}
