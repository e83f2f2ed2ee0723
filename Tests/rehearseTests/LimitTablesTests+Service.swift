import Foundation
import RehearseCore
import RehearseDBusWire
import RehearseSession

@testable import RehearseAccessibility
@testable import RehearseDBusService
@testable import RehearsePluginHost
@testable import RehearseView

/// The rows of docs/dbus.md's, docs/atspi.md's, docs/viewer.md's and docs/remote-plugins.md's
/// limits tables that state the service's, the accessibility export's, the viewer's and the plugin
/// host's own limits (those of scenario files
/// are in ``LimitTablesTests/scenarioRows``).
extension LimitTablesTests {
    static let dbus = "docs/dbus.md", viewer = "docs/viewer.md"

    static let serviceRows: [Row] = [
        Row(
            document: dbus, row: "| a string in a call |",
            limits: [("MessageReader.maximumStringBytes", kibibytes(MessageReader.maximumStringBytes))]),
        Row(document: dbus, row: "| `LoadScenario` text |", limits: [("fileBytes", mebibytes(ScenarioLimits.fileBytes))]),
        Row(
            document: dbus, row: "| fields in one call |",
            limits: [("MessageReader.maximumFields", grouped(MessageReader.maximumFields))]),
        Row(
            document: dbus, row: "| variants nested |",
            limits: [("MessageReader.maximumDepth", "\(MessageReader.maximumDepth) deep")]),
        Row(
            document: dbus, row: "| `InjectStrings` keys |",
            limits: [("FieldText.maximumKeyParts", "\(FieldText.maximumKeyParts) parts")]),
        Row(
            document: dbus, row: "| the field path an error names |",
            limits: [("MessageReader.Problem.maximumPathBytes", "\(MessageReader.Problem.maximumPathBytes) bytes")]),
        Row(
            document: dbus, row: "| `Advance`, `InjectAt` times |",
            limits: [
                ("SimulatorSession.maximumAdvance", "0 to \(grouped(SimulatorSession.maximumAdvance)) s")
            ]),
        Row(
            document: dbus, row: "| `Settle`, `WaitUntil` timeouts |",
            limits: [("waitSeconds", "0 to \(grouped(ScenarioLimits.waitSeconds)) s")]),
        Row(
            document: dbus, row: "| events waiting on the clock",
            limits: [("pendingEvents", "| \(grouped(ScenarioLimits.pendingEvents)) |")]),
        Row(
            document: dbus, row: "| sessions created by one client |",
            limits: [
                ("SessionTable.maximumSessionsPerOwner", "\(SessionTable.maximumSessionsPerOwner) open at once")
            ]),
        Row(
            document: dbus, row: "| sessions created by all clients |",
            limits: [("SessionTable.maximumSessions", "\(SessionTable.maximumSessions) open at once")]),
        Row(document: dbus, row: "| a session's `scenario` text |", limits: [("fileBytes", mebibytes(ScenarioLimits.fileBytes))]),
        Row(
            document: dbus, row: "| calls waiting for a session",
            limits: [("SessionWorker.maximumQueuedCalls", "| \(grouped(SessionWorker.maximumQueuedCalls)) |")]),
        Row(
            document: dbus, row: "| replies and signals a session made",
            limits: [("SessionWorker.maximumOutbox", "| \(grouped(SessionWorker.maximumOutbox)) |")]),
        Row(
            document: dbus, row: "| peers at `--listen` |",
            limits: [
                ("PeerServer.maximumPeers", "| \(PeerServer.maximumPeers) at once |"),
                (
                    "SimulatorService.defaultIdlePeerTimeout",
                    "`--idle-peer-timeout`, \(wholeSeconds(SimulatorService.defaultIdlePeerTimeout)) s"
                ),
            ]),
        Row(
            document: dbus, row: "| peers at `--listen` still authenticating |",
            limits: [
                ("PeerServer.maximumAuthenticatingPeers", "| \(PeerServer.maximumAuthenticatingPeers) at once |")
            ]),
        Row(
            document: dbus, row: "| plugins registered with one session",
            limits: [("SessionWorker.maximumPlugins", "| \(SessionWorker.maximumPlugins) |")]),
        Row(
            document: dbus, row: "| `Record` names one session writes |",
            limits: [
                ("RecordingFolder.maximumRecordsPerSession", "| \(RecordingFolder.maximumRecordsPerSession) (writing")
            ]),
        Row(
            document: dbus, row: "| bytes in the `--record` folder |",
            limits: [("RecordingFolder.maximumFolderBytes", mebibytes(RecordingFolder.maximumFolderBytes))]),
        Row(
            document: dbus, row: "| a peer's match rules |",
            limits: [
                ("PeerMatchRules.maximumRules", "| \(PeerMatchRules.maximumRules), each"),
                ("PeerMatchRules.maximumRuleBytes", "\(grouped(PeerMatchRules.maximumRuleBytes)) bytes at most"),
            ]),
        Row(
            document: dbus, row: "| a peer's authentication |",
            limits: [
                ("PeerServer.authenticationTimeout", "| \(wholeSeconds(PeerServer.authenticationTimeout)) s |")
            ]),
        Row(
            document: dbus, row: "| bytes waiting to be sent to one peer |",
            limits: [
                ("PeerServer.maximumPeerBacklog", "| \(mebibytes(PeerServer.maximumPeerBacklog)) |"),
                ("PeerServer.maximumPeerBacklog", "(the limit is \(PeerServer.maximumPeerBacklog))"),
            ]),
        Row(
            document: dbus, row: "| bytes waiting to be sent to the bus daemon |",
            limits: [("PeerServer.maximumBusBacklog", mebibytes(PeerServer.maximumBusBacklog))]),
        Row(
            document: remote, row: "| size of one message from a plugin |",
            limits: [
                ("PluginPeerLink.maximumMessageBytes", mebibytes(PluginPeerLink.maximumMessageBytes))
            ]),
        Row(
            document: remote, row: "| events a plugin declares, names it subscribes to |",
            limits: [
                ("PluginRegistration.maximumEvents", "\(PluginRegistration.maximumEvents) each")
            ]),
    ]

    static let atspi = "docs/atspi.md"

    static let accessibilityRows: [Row] = [
        Row(
            document: atspi, row: "| a string argument |",
            limits: [("MessageReader.maximumStringBytes", kibibytes(MessageReader.maximumStringBytes))]),
        Row(
            document: atspi, row: "| a field's text with what `InsertText`",
            limits: [("textLength", "\(grouped(ScenarioLimits.textLength)) Unicode scalars")]),
        Row(
            document: atspi, row: "| signals one check sends |",
            limits: [("AccessibleAnnouncer.maximumSignalsPerCheck", "| \(grouped(AccessibleAnnouncer.maximumSignalsPerCheck)) (")]
        ),
        Row(
            document: atspi, row: "| bytes waiting to be sent to the accessibility bus's daemon |",
            limits: [
                ("AccessibilityExport.maximumBacklogBytes", "| \(mebibytes(AccessibilityExport.maximumBacklogBytes)) ("),
                ("AccessibilityExport.maximumBacklogBytes", "(the limit is \(AccessibilityExport.maximumBacklogBytes))"),
            ]),
        Row(
            document: atspi, row: "| an object path |",
            limits: [("AccessiblePaths.nodePrefix", "after `\(AccessiblePaths.nodePrefix)`")]),
        Row(
            document: atspi, row: "| bytes of calls read and not yet answered |",
            limits: [("AccessibilityExport.maximumReadAheadBytes", "| \(mebibytes(AccessibilityExport.maximumReadAheadBytes)) (")]
        ),
    ]

    static let viewerRows: [Row] = [
        Row(
            document: viewer, row: "| `ViewerConnections.Limits.idleTimeout` |",
            limits: [
                ("ViewerConnections.Limits.idleTimeout", "| \(wholeSeconds(ViewerConnections.Limits.standard.idleTimeout)) s |")
            ]),
        Row(
            document: viewer, row: "| `ViewerConnections.Limits.maximumConnections` |",
            limits: [
                ("ViewerConnections.Limits.maximumConnections", "| \(ViewerConnections.Limits.standard.maximumConnections) |"),
                ("ViewerHub.maximumClients", "one of the \(ViewerHub.maximumClients) pages"),
            ]),
        Row(
            document: viewer, row: "| `ViewerHub.maximumClients` |",
            limits: [("ViewerHub.maximumClients", "| \(ViewerHub.maximumClients) pages |")]),
        Row(
            document: viewer, row: "| `ViewerServer.maximumHeaderBytes` |",
            limits: [("ViewerServer.maximumHeaderBytes", "| \(kibibytes(ViewerServer.maximumHeaderBytes)) |")]),
        Row(
            document: viewer, row: "| `ViewerCommand.maximumMessageSize` |",
            limits: [
                ("ViewerCommand.maximumMessageSize", "| \(grouped(ViewerCommand.maximumMessageSize)) bytes |")
            ]),
        Row(
            document: viewer, row: "| `ViewerHub.maximumQueuedCommands` |",
            limits: [("ViewerHub.maximumQueuedCommands", "| \(ViewerHub.maximumQueuedCommands) |")]),
        Row(
            document: viewer, row: "| `ViewerHub.clientBacklog` |",
            limits: [("ViewerHub.clientBacklog", "| \(ViewerHub.clientBacklog) messages |")]),
        Row(
            document: viewer, row: "| `ScenarioLimits.textLength` |",
            limits: [("textLength", "| \(grouped(ScenarioLimits.textLength)) Unicode scalars")]),
    ]

    /// A size in bytes as the documents write it: 64 KiB.
    static func kibibytes(_ bytes: Int) -> String {
        "\(bytes >> 10) KiB"
    }

    /// A duration of whole seconds as the documents write it: 60.
    static func wholeSeconds(_ duration: Duration) -> String {
        grouped(Int(duration.components.seconds))
    }
}
