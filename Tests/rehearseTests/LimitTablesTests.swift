import Foundation
import IntegrationTestSupport
import RehearseCore
import RehearseScenario
import Testing

/// The documents' limits tables state the numbers the code holds. Each row below names the
/// constants it states (of `ScenarioLimits`, the D-Bus service, the viewer and the plugin host)
/// and the text each must read as there, computed from the constant: a changed limit fails here,
/// naming the document and its row, until the row is written again. Every constant of
/// `ScenarioLimits`, and every `maximum...` of the service, is stated in some row (a new limit is
/// documented, or `everyScenarioLimitIsInATable` / `everyServiceLimitIsInATable` says which is not).
@Suite struct LimitTablesTests {
    /// A row of a limits table: the document, the start of the row, and each limit it states
    /// with the text it reads as.
    struct Row: Sendable, CustomStringConvertible {
        let document: String
        let row: String
        let limits: [(name: String, text: String)]

        var description: String { "\(document): \(row)" }
    }

    static let scenarios = "Scenarios/README.md", remote = "docs/remote-plugins.md"

    /// Every row this suite checks.
    static let rows = scenarioRows + serviceRows + accessibilityRows + viewerRows

    /// The rows that state `ScenarioLimits` and the plugin host's folder clean-up.
    static let scenarioRows: [Row] = [
        Row(document: scenarios, row: "| file size |", limits: [("fileBytes", mebibytes(ScenarioLimits.fileBytes))]),
        Row(
            document: scenarios, row: "| nesting, aliases expanded |",
            limits: [("nestingDepth", "\(ScenarioLimits.nestingDepth) levels")]),
        Row(
            document: scenarios, row: "| alias expansion |",
            limits: [
                ("expandedNodes", "\(grouped(ScenarioLimits.expandedNodes)) nodes"),
                ("expandedTextBytes", "\(mebibytes(ScenarioLimits.expandedTextBytes)) of text"),
            ]),
        Row(document: scenarios, row: "| steps |", limits: [("steps", grouped(ScenarioLimits.steps))]),
        Row(
            document: scenarios, row: "| `accessibility:` deviations |",
            limits: [
                (
                    "accessibilityDeviations",
                    "\(grouped(ScenarioLimits.accessibilityDeviations)) (`ScenarioLimits.accessibilityDeviations`)"
                ),
                (
                    "deviationReasonLength",
                    "a reason \(ScenarioLimits.deviationReasonLength.lowerBound) to "
                        + "\(grouped(ScenarioLimits.deviationReasonLength.upperBound)) Unicode scalars"
                ),
            ]),
        Row(
            document: scenarios, row: "| simulated run length |",
            limits: [("runSeconds", "\(grouped(ScenarioLimits.runSeconds)) s")]),
        Row(
            document: scenarios, row: "| `settle` and `wait-until` timeouts |",
            limits: [("waitSeconds", "0 to \(grouped(ScenarioLimits.waitSeconds)) s")]),
        Row(
            document: scenarios, row: "| motion samples |",
            limits: [
                ("motionSamples", grouped(ScenarioLimits.motionSamples)),
                ("motionRate", "`hz` at most \(grouped(ScenarioLimits.motionRate.upperBound))"),
            ]),
        Row(
            document: scenarios, row: "| touch events |",
            limits: [
                ("touchEvents", grouped(ScenarioLimits.touchEvents)),
                ("touchIDs", "ids \(ScenarioLimits.touchIDs.lowerBound) to \(ScenarioLimits.touchIDs.upperBound)"),
                ("pinchScale", "at most \(grouped(ScenarioLimits.pinchScale))"),
                ("pinchVelocity", "`velocity` at most \(grouped(ScenarioLimits.pinchVelocity)) a second"),
                ("gestureVelocity", "at most \(grouped(ScenarioLimits.gestureVelocity)) points per second"),
            ]),
        Row(
            document: scenarios, row: "| `scroll-until-visible` drags |",
            limits: [
                ("scrollDrags", "`max` 1 to \(grouped(ScenarioLimits.scrollDrags)) drags")
            ]),
        Row(
            document: scenarios, row: "| a scroll view's `decelerationRate` |",
            limits: [
                ("decelerationRate", "at most \(ScenarioLimits.decelerationRate)")
            ]),
        Row(
            document: scenarios, row: "| a node's zoom scales |",
            limits: [
                ("zoomScale", "from \(ScenarioLimits.zoomScale.lowerBound) to \(grouped(ScenarioLimits.zoomScale.upperBound))")
            ]),
        Row(
            document: scenarios, row: "| a node's text |",
            limits: [("textLength", "\(grouped(ScenarioLimits.textLength)) Unicode scalars")]),
        Row(document: scenarios, row: "| scene nodes |", limits: [("nodes", grouped(ScenarioLimits.nodes))]),
        Row(
            document: scenarios, row: "| node queries |",
            limits: [("queryIndex", "`index` 0 to \(grouped(ScenarioLimits.queryIndex))")]),
        Row(document: scenarios, row: "| scene depth |", limits: [("sceneDepth", "\(ScenarioLimits.sceneDepth) levels")]),
        Row(
            document: scenarios, row: "| snapshot and golden picture names |",
            limits: [
                ("fileNameLength", "\(ScenarioLimits.fileNameLength.lowerBound) to \(ScenarioLimits.fileNameLength.upperBound)")
            ]),
        Row(
            document: scenarios, row: "| invariants |",
            limits: [
                ("invariants", grouped(ScenarioLimits.invariants)),
                ("conditionLength", "a condition \(grouped(ScenarioLimits.conditionLength)) characters"),
                ("invariantNameLength", "a name \(ScenarioLimits.invariantNameLength)"),
                ("finitePaths", "a `finite` list \(ScenarioLimits.finitePaths) paths"),
            ]),
        Row(
            document: scenarios, row: "| inline device |",
            limits: [
                ("deviceLength", "at most \(grouped(ScenarioLimits.deviceLength)) points"),
                (
                    "deviceRefreshRate",
                    "`hz` \(ScenarioLimits.deviceRefreshRate.lowerBound) to \(grouped(ScenarioLimits.deviceRefreshRate.upperBound))"
                ),
                ("deviceScale", "`scale` \(ScenarioLimits.deviceScale.lowerBound) to \(ScenarioLimits.deviceScale.upperBound)"),
            ]),
        Row(
            document: scenarios, row: "| `expect-event` counts |",
            limits: [("eventCount", "0 to \(grouped(ScenarioLimits.eventCount))")]),
        Row(
            document: scenarios, row: "| POP springs |",
            limits: [
                (
                    "popParameter",
                    "\(grouped(ScenarioLimits.popParameter.lowerBound)) to \(grouped(ScenarioLimits.popParameter.upperBound))"
                )
            ]),
        Row(
            document: scenarios, row: "| `--report` pictures |",
            limits: [
                ("Rendering.maximumStepPictures", "\(ScenarioRunner.Rendering.maximumStepPictures) steps pictured"),
                ("Rendering.gestureFrameInterval", "at most one per \(ScenarioRunner.Rendering.gestureFrameInterval) s"),
                ("Rendering.maximumGestureFramesPerStep", "\(ScenarioRunner.Rendering.maximumGestureFramesPerStep) a step"),
                ("Rendering.maximumGestureFramesPerRun", "\(ScenarioRunner.Rendering.maximumGestureFramesPerRun) a run"),
                ("Rendering.maximumPictureNodes", "\(grouped(ScenarioRunner.Rendering.maximumPictureNodes)) nodes"),
            ]),
        Row(
            document: scenarios, row: "| `explore:` |",
            limits: [
                ("exploreLength", "`length` 1 to \(grouped(ScenarioLimits.exploreLength))"),
                ("exploreRuns", "`runs` 1 to \(grouped(ScenarioLimits.exploreRuns))"),
                ("exploreWeight", "a weight 0 to \(grouped(ScenarioLimits.exploreWeight))"),
                (
                    "exploreValues",
                    "values list \(ScenarioLimits.exploreValues.lowerBound) to \(ScenarioLimits.exploreValues.upperBound) items"
                ),
            ]),
        Row(
            document: remote, row: "| effects in one answer |",
            limits: [("remoteEffects", "`ScenarioLimits.remoteEffects` = \(grouped(ScenarioLimits.remoteEffects))")]),
        Row(
            document: remote, row: "| calls at one instant of virtual time",
            limits: [
                (
                    "remoteCallsAtOneInstant",
                    "`ScenarioLimits.remoteCallsAtOneInstant` = \(grouped(ScenarioLimits.remoteCallsAtOneInstant))"
                )
            ]),
        Row(
            document: remote, row: "| deadline per answer |",
            limits: [
                (
                    "remoteDeadline",
                    "\(ScenarioLimits.remoteDeadline.lowerBound) to \(grouped(ScenarioLimits.remoteDeadline.upperBound)) s"
                ),
                ("remoteDefaultDeadline", "default \(grouped(ScenarioLimits.remoteDefaultDeadline))"),
            ]),
        Row(
            document: remote, row: "| start (connect and register) |",
            limits: [("remoteStartSeconds", "\(grouped(ScenarioLimits.remoteStartSeconds)) s")]),
        Row(
            document: remote, row: "| items waiting on the clock",
            limits: [("pendingEvents", "`ScenarioLimits.pendingEvents` = \(grouped(ScenarioLimits.pendingEvents))")]),
        Row(
            document: remote, row: "| events one event may cause",
            limits: [("cascadeEvents", "`ScenarioLimits.cascadeEvents` = \(grouped(ScenarioLimits.cascadeEvents))")]),
        Row(
            document: remote, row: "| plugins one file starts |",
            limits: [("commandPlugins", "`ScenarioLimits.commandPlugins` = \(ScenarioLimits.commandPlugins)")]),
        Row(
            document: remote, row: "| paths a plugin reads |",
            limits: [("remoteReads", "`ScenarioLimits.remoteReads` = \(ScenarioLimits.remoteReads)")]),
        Row(
            document: remote, row: "| length of a path a scenario's `reads:` gives |",
            limits: [
                (
                    "remoteReadPathLength",
                    "`ScenarioLimits.remoteReadPathLength` = \(ScenarioLimits.remoteReadPathLength) Unicode scalars"
                )
            ]),
        Row(
            document: remote, row: "| words of a command |",
            limits: [("commandArguments", "`ScenarioLimits.commandArguments` = \(ScenarioLimits.commandArguments)")]),
        Row(
            document: remote, row: "| what a program leaves in its private folder, removed |",
            limits: [
                ("FolderRemoval.maximumDepth", "`FolderRemoval.maximumDepth` = \(FolderRemoval.maximumDepth) folders deep"),
                (
                    "FolderRemoval.maximumEntries",
                    "`FolderRemoval.maximumEntries` = \(grouped(FolderRemoval.maximumEntries)) entries"
                ),
                ("FolderRemoval.maximumRounds", "`FolderRemoval.maximumRounds` = \(FolderRemoval.maximumRounds) rounds"),
            ]),
    ]

    /// Each row states each of its limits as the code holds it.
    @Test(arguments: rows)
    func theRowStatesTheCodesLimits(row: Row) throws {
        let text = try String(contentsOf: Rehearse.packageRoot.appendingPathComponent(row.document), encoding: .utf8)
        let line = try #require(
            text.split(separator: "\n").first { $0.hasPrefix(row.row) }, "no row \(row.row) in \(row.document)")
        for limit in row.limits {
            #expect(
                line.contains(limit.text), "\(row.document), row \(row.row): the limit \(limit.name) reads \"\(limit.text)\" now")
        }
    }

    /// Every `static let` of `ScenarioLimits` is stated in a row above.
    @Test func everyScenarioLimitIsInATable() throws {
        let source = try String(
            contentsOf: Rehearse.packageRoot.appendingPathComponent("Sources/RehearseCore/Limits/ScenarioLimits.swift"),
            encoding: .utf8)
        let declared = source.matches(of: /static let (?<name>[A-Za-z]+)/).map { String($0.output.name) }
        let stated = Set(Self.rows.flatMap { $0.limits.map(\.name) })
        #expect(!declared.isEmpty)
        #expect(
            declared.filter { !stated.contains($0) } == [],
            "limits no document's table states (add a row here and to the document)")
    }

    /// Every `static let maximum...` of the service's and the accessibility export's sources, and
    /// of the message reader that bounds what a peer sends, is stated in a row above (by its name
    /// after the type's).
    @Test func everyServiceLimitIsInATable() throws {
        let folders = ["Sources/RehearseDBusService", "Sources/RehearseAccessibility"].map(
            Rehearse.packageRoot.appendingPathComponent)
        let files =
            try folders.flatMap { folder in
                try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)).compactMap {
                    $0 as? URL
                }
            }
            .filter { $0.pathExtension == "swift" } + [
                Rehearse.packageRoot.appendingPathComponent("Sources/RehearseDBusWire/Messages/MessageReader.swift")
            ]
        let declared = try files.flatMap { file in
            try String(contentsOf: file, encoding: .utf8).matches(of: /static let (?<name>maximum[A-Za-z]+)/).map {
                String($0.output.name)
            }
        }
        let stated = Set(
            (Self.serviceRows + Self.accessibilityRows).flatMap {
                $0.limits.map { String($0.name.split(separator: ".").last ?? "") }
            })
        #expect(declared.count >= 10, "the service's limits were not found where this test looks: \(declared)")
        #expect(
            Set(declared).subtracting(stated).sorted() == [],
            "limits docs/dbus.md's and docs/atspi.md's tables do not state (add a row here and to the document)")
    }

    /// A whole number as the documents write it: 10,000.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        let groups = stride(from: digits.count, to: 0, by: -3).reversed().map { end in
            String(
                digits[
                    digits.index(digits.startIndex, offsetBy: max(0, end - 3))..<digits.index(digits.startIndex, offsetBy: end)])
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// A number as the documents write it: whole ones grouped (1,000,000), others as they are (0.9999).
    static func grouped(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? grouped(Int(value)) : "\(value)"
    }

    /// A size in bytes as the documents write it: 16 MiB.
    static func mebibytes(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB"
    }
}
