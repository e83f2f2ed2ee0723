import RehearseCore

/// Examples/RemotePlugins/pull_to_refresh.py written as a Swift plugin, line for line: the same
/// configuration, events, state and effects in the same order, reading the scene through
/// `context.scene` where the Python one declares `reads`, and setting the target content offset
/// through `context.setTargetContentOffset` where it answers `target-offset`.
final class SwiftPullToRefresh: Plugin {
    struct Configuration: Codable, Sendable, Equatable {
        var threshold = 60.0
        var height = 60.0
        var duration = 3.0
    }

    struct RefreshBegan: PluginEvent, Codable {
        static let name = "refresh.began"
        static let fieldSummary = "pulled"
        static let summary = "pull-to-refresh, when a pull starts a refresh"
        var pulled: Double
    }

    struct RefreshEnded: PluginEvent, Codable {
        static let name = "refresh.ended"
        static let fieldSummary = "refreshes"
        static let summary = "pull-to-refresh, when a refresh ends"
        var refreshes: Int
    }

    static let id = "pull-to-refresh"
    static let summary = "holds a list pulled down far enough open while it refreshes"
    static let defaultConfiguration = Configuration()
    static let events: [any PluginEvent.Type] = [RefreshBegan.self, RefreshEnded.self]

    private var refreshing = false
    private var refreshes = 0

    init(configuration: Configuration, context: PluginContext) throws {
        context.on(.scrollWillEndDragging) { [unowned self] release in
            guard let list = context.scene["list"] else { return }
            let top = list.contentInset.top
            let pulled = -list.contentOffset.y - top
            guard release.target == "list", !refreshing, pulled >= configuration.threshold else { return }
            refreshing = true
            try context.setValue(.double(top + configuration.height), at: "list.contentInset.top")
            context.setTargetContentOffset(Point(x: release.targetContentOffset.x, y: -(top + configuration.height)), of: "list")
            try context.emit(RefreshBegan(pulled: pulled))
            context.schedule(after: VirtualTime.seconds(configuration.duration) ?? .zero) { [unowned self] in
                refreshing = false
                refreshes += 1
                try context.animate(
                    AnimationParameters(duration: 0.3),
                    changes: {
                        try context.setValue(.double(top), at: "list.contentInset.top")
                        try context.setValue(.double(-top), at: "list.contentOffset.y")
                    })
                try context.emit(RefreshEnded(refreshes: refreshes))
            }
        }
    }

    var state: Fields { ["refreshing": .bool(refreshing), "refreshes": .int(Int64(refreshes))] }
}
