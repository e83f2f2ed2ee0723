import Foundation
import IntegrationTestSupport
import Testing

/// `rehearse run --settle`: a settle after every step that starts motion, in files that do not
/// say `settle: auto`; off by default.
@Suite struct RunSettleTests {
    static let fling = """
        name: fling
        scene:
          nodes:
            - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 3000]}
        steps:
          - drag: {from: [160, 500], to: [160, 200], duration: 0.25}
          - expect: {list.contentOffset.y: {approx: 879.40, within: 0.5}}

        """

    @Test func settleMakesTheStepsWaitForTheFlingAndItIsOffByDefault() throws {
        let file = try Rehearse.scenario(Self.fling)
        let settled = try Rehearse.run(["run", "--settle", file.path])
        #expect(settled.status == 0, "\(settled.output)")
        #expect(settled.output.hasSuffix("scenarios: 1 passed, 0 failed\n"))
        let unsettled = try Rehearse.run(["run", file.path])
        #expect(unsettled.status == 1)
        #expect(unsettled.output.contains("\(file.path):7:14: expectation failed at 0.25 s: list.contentOffset.y"))
    }
}
