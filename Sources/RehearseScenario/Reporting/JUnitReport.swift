import Foundation
import RehearseSupport

/// JUnit XML as CI systems read it: one `testsuite`, one `testcase` per scenario file, a `failure`
/// per failed expectation and an `error` for an invalid file. With an HTML report (`--report DIR`),
/// each failed or invalid `testcase` has a `report` property, the path of its page, as pytest's
/// and Surefire's testcase properties carry such links.
public enum JUnitReport {
    public static func render(_ results: [ScenarioResult], reportFolder: String? = nil) -> String {
        let summary = RunSummary(results)
        let total = results.reduce(0.0) { $0 + $1.wallTime.inSeconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="rehearse" tests="\#(results.count)" failures="\#(summary.failed)" errors="\#(summary.invalid + summary.stopped)" time="\#(total)">"#
            + "\n"
        xml +=
            #"  <testsuite name="scenarios" tests="\#(results.count)" failures="\#(summary.failed)" errors="\#(summary.invalid + summary.stopped)" skipped="0" time="\#(total)">"#
            + "\n"
        let pages = reportFolder.map { _ in HTMLReport.pagePaths(of: results.map(\.file)) }
        for (index, result) in results.enumerated() {
            let attributes =
                #"name="\#(XMLText.escape(result.name))" classname="\#(XMLText.escape(result.file))" time="\#(result.wallTime.inSeconds)""#
            switch result.outcome {
            case .passed:
                xml += "    <testcase \(attributes)/>\n"
            case .invalid(let error), .stopped(let error):
                let type = if case .stopped = result.outcome { "stopped" } else { "invalid" }
                xml += "    <testcase \(attributes)>\n" + reportProperty(pages?[index], in: reportFolder)
                xml +=
                    #"      <error message="\#(XMLText.escape(error.message))" type="\#(type)">\#(XMLText.escape(error.description))</error>"#
                    + "\n"
                xml += "    </testcase>\n"
            case .failed(let failures):
                xml += "    <testcase \(attributes)>\n" + reportProperty(pages?[index], in: reportFolder)
                for failure in failures {
                    let message = "\(failure.subject): expected \(failure.expected), actual \(failure.actual)"
                    let body = "\(failure.location) at \(failure.time) s\n" + failure.recentEvents.joined(separator: "\n")
                    xml +=
                        #"      <failure message="\#(XMLText.escape(message))" type="expectation">\#(XMLText.escape(body))</failure>"#
                        + "\n"
                }
                xml += "    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// The `report` property of a testcase whose page is `page` in `folder`, or nothing without a report.
    private static func reportProperty(_ page: String?, in folder: String?) -> String {
        guard let page, let folder else { return "" }
        let path = (folder as NSString).appendingPathComponent(page)
        return #"      <properties><property name="report" value="\#(XMLText.escape(path))"/></properties>"# + "\n"
    }
}
