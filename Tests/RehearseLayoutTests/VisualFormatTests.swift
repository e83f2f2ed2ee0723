import Testing

@testable import RehearseLayout

@Suite struct VisualFormatTests {
    @Test func theSeedsVerticalLineGivesSpacingAndSizeConstraints() throws {
        let constraints = try VisualFormatParser.parse(
            "V:|-top-[title]-space-[username]-(8)-[separator(1)]-(8)-[password]", metrics: ["top": 120, "space": 100])
        #expect(
            constraints.map(\.description) == [
                "title.top == superview.top + 120.0",
                "username.top == title.bottom + 100.0",
                "separator.height == 1.0",
                "separator.top == username.bottom + 8.0",
                "password.top == separator.bottom + 8.0",
            ])
    }

    /// iOS 7 standard spacing: 20 to the superview, 8 between siblings.
    @Test func standardSpacingIsTwentyToTheEdgeAndEightBetweenViews() throws {
        let constraints = try VisualFormatParser.parse("H:|-[a]-[b]-|")
        #expect(
            constraints.map(\.description) == [
                "a.left == superview.left + 20.0",
                "b.left == a.right + 8.0",
                "superview.right == b.right + 20.0",
            ])
        #expect(try VisualFormatParser.parse("[a][b]").map(\.description) == ["b.left == a.right"])
        #expect(
            try VisualFormatParser.parse("V:|[a]|").map(\.description) == [
                "a.top == superview.top", "superview.bottom == a.bottom",
            ])
    }

    @Test func predicatesRelationsPrioritiesAndViewSizes() throws {
        let constraints = try VisualFormatParser.parse("H:|-(>=20@750)-[a(>=50,<=200)]-gap-[b(==a)]|", metrics: ["gap": 12])
        #expect(
            constraints.map(\.description) == [
                "a.width >= 50.0",
                "a.width <= 200.0",
                "a.left >= superview.left + 20.0 @750.0",
                "b.width == a.width",
                "b.left == a.right + 12.0",
                "superview.right == b.right",
            ])
    }

    @Test func alignmentOptionsRelateEveryViewOfTheLine() throws {
        let constraints = try VisualFormatParser.parse("H:[a]-[b]-[c]", options: [.alignAllCenterY])
        #expect(constraints.suffix(2).map(\.description) == ["b.centerY == a.centerY", "c.centerY == b.centerY"])
        #expect(throws: LayoutSyntaxError.self) { try VisualFormatParser.parse("H:[a]-[b]", options: [.alignAllLeft]) }
    }

    @Test(arguments: [
        ("H:|-[a", "expected ']' to close [a", 6),
        ("V:|-top-[a]", "unknown metric 'top', found ']'", 4),
        ("H:[a]-(8-[b]", "expected ',' or ')' after a spacing predicate, found '-'", 8),
        ("H:[a]-[a]", "view 'a' appears twice in one line, found ']'", 8),
        ("H:[a(@750)]", "expected a number, a metric or a view name, found '@'", 5),
        ("H:[a]-(8@2000)-[b]", "a priority is from 1 to 1000, found 2000.0", 9),
        ("H:|-[a]-x", "unknown metric 'x'", 8),
    ])
    func syntaxErrorsSayWhereAndWhatWasExpected(format: String, message: String, offset: Int) {
        let error = #expect(throws: LayoutSyntaxError.self) { try VisualFormatParser.parse(format) }
        #expect(error?.offset == offset, "\(error?.description ?? "")")
        #expect(
            error?.description.hasPrefix(message.components(separatedBy: ", found").first ?? message) == true,
            "\(error?.description ?? "")")
    }

    @Test func singleConstraintsParse() throws {
        #expect(
            try SingleConstraintParser.parse("title.centerX == superview.centerX").description
                == "title.centerX == superview.centerX")
        #expect(
            try SingleConstraintParser.parse("a.width == 0.5 * b.width + 10").description == "a.width == 0.5 * b.width + 10.0")
        #expect(
            try SingleConstraintParser.parse("a.width <= b.width * 2 - gap @250", metrics: ["gap": 4]).description
                == "a.width <= 2.0 * b.width - 4.0 @250.0")
        #expect(try SingleConstraintParser.parse("separator.height == 1").description == "separator.height == 1.0")
        #expect(try SingleConstraintParser.parse("a.top >= gap", metrics: ["gap": 8]).description == "a.top >= 8.0")
        let error = #expect(throws: LayoutSyntaxError.self) { try SingleConstraintParser.parse("a.middle == b.top") }
        #expect(error?.offset == 2)
        #expect(throws: LayoutSyntaxError.self) { try SingleConstraintParser.parse("a.top = b.top") }
        #expect(throws: LayoutSyntaxError.self) { try SingleConstraintParser.parse("a.top == b.top extra") }
    }
}
