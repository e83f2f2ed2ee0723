import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse audit` as a user runs it: its exit status, its lines (text, JSON, JUnit), and a hostile
/// id kept inert.
@Suite struct AuditCommandTests {
    @Test func findingsExitOneNoneExitZeroAndAFileThatDoesNotLoadTwo() throws {
        let breaking = try Rehearse.scenario(
            """
            name: a small button
            scene:
              nodes:
                - {id: "tiny\\u202E[2J", kind: button, frame: [10, 30, 30, 30], text: OK}
            steps:
              - wait: 0.1
            """)
        let found = try Rehearse.run(["audit", breaking.path])
        #expect(found.status == 1, "\(found.output)\(found.errorOutput)")
        #expect(
            found.output.hasPrefix(
                "\(breaking.path):6:5: warning: tiny\\u{202E}[2J: it is 30 × 30 pt on screen, less than 44 × 44 pt [touch-target]\n"
            ),
            "\(found.output)")
        #expect(!found.output.contains("\u{202E}"))

        let mended = try Rehearse.scenario(
            """
            name: a button of 44 points
            scene:
              nodes:
                - {id: ok, kind: button, frame: [10, 30, 44, 44], text: OK}
            steps:
              - wait: 0.1
            """)
        let clean = try Rehearse.run(["audit", "--format", "json", mended.path])
        #expect(clean.status == 0, "\(clean.output)\(clean.errorOutput)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(clean.output.utf8)) as? [String: Any])
        #expect((json["files"] as? [[String: Any]])?.first?["findings"] as? [Any] != nil)
        #expect((json["rules"] as? [Any])?.count == 4)

        let broken = try Rehearse.scenario("name: broken\nsteps:\n  - wait: -1\n")
        let invalid = try Rehearse.run(["audit", broken.path, mended.path])
        #expect(invalid.status == 2, "\(invalid.output)\(invalid.errorOutput)")
        #expect(invalid.output.contains("\(broken.path):3:"), "\(invalid.output)")
        #expect(invalid.output.contains("audit: 0 findings in 0 of 2 files, 1 not audited"), "\(invalid.output)")

        // JUnit: a failure per finding, an error per file not audited, valid against the schema.
        let junit = try Rehearse.run(["audit", "--format", "junit", breaking.path, broken.path, mended.path])
        #expect(junit.status == 2)
        #expect(try Rehearse.junitProblems(junit.output, besides: breaking, named: "audit.xml") == nil)
        #expect(junit.output.contains(#"tests="3" failures="1" errors="1""#), "\(junit.output)")
        #expect(junit.output.contains(#"type="touch-target">"#), "\(junit.output)")
    }

    /// A finding the file documents as a deviation exits 0 and is a skipped JUnit case, valid
    /// against the schema; a deviation that matches nothing exits 1.
    @Test func deviatedFindingsExitZeroAndAStaleDeviationOne() throws {
        // A button of `side` points, and a deviation from the touch-target rule for it.
        func file(side: Int) throws -> URL {
            try Rehearse.scenario(
                """
                name: a button of \(side) points
                scene:
                  nodes:
                    - {id: tiny, kind: button, frame: [10, 30, \(side), \(side)], text: OK}
                accessibility:
                  deviations:
                    - {rule: touch-target, node: tiny, reason: "the original's button is 30 pt"}
                steps:
                  - wait: 0.1
                """)
        }
        let deviated = try file(side: 30)
        let text = try Rehearse.run(["audit", deviated.path])
        #expect(text.status == 0, "\(text.output)\(text.errorOutput)")
        #expect(text.output.contains("audit: 1 finding (1 deviated) in 1 of 1 file"), "\(text.output)")
        let junit = try Rehearse.run(["audit", "--format", "junit", deviated.path])
        #expect(junit.status == 0)
        #expect(try Rehearse.junitProblems(junit.output, besides: deviated, named: "audit.xml") == nil)
        #expect(junit.output.contains(#"<skipped message="deviation: the original&apos;s button is 30 pt"/>"#), "\(junit.output)")

        let stale = try file(side: 44)
        let found = try Rehearse.run(["audit", stale.path])
        #expect(found.status == 1, "\(found.output)\(found.errorOutput)")
        #expect(found.output.hasPrefix("\(stale.path):7:7: warning: tiny: a stale deviation"), "\(found.output)")
    }
}
