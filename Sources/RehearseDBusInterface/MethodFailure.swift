import RehearseSession

/// A method that failed: the error name and what was wrong, sent back as an error reply.
package struct MethodFailure: Error, Equatable {
    package let error: SimulatorError
    package let message: String

    /// The error's D-Bus name.
    package var name: String { error.rawValue }

    /// The longest error message sent: what names a client's input (a file's 20 errors) stops
    /// there with `…`, far below the 8 MiB a peer may fall behind by.
    package static let maximumMessageLength = 64 << 10

    package init(_ error: SimulatorError, _ message: String) {
        self.error = error
        self.message =
            message.utf8.count > Self.maximumMessageLength
            ? String(decoding: message.utf8.prefix(Self.maximumMessageLength), as: UTF8.self) + "…" : message
    }
}

extension MethodFailure {
    /// The D-Bus error for a session's refusal: its kind's `org.rehearse.Error.*` name.
    package init(_ error: SessionError) {
        let name: SimulatorError =
            switch error.kind {
            case .unknownEvent: .unknownEvent
            case .invalidField: .invalidField
            case .unknownPath: .unknownPath
            case .unknownPlugin: .unknownPlugin
            case .invalidScenario: .invalidScenario
            case .wrongMode: .wrongMode
            case .limit: .limit
            case .nodeNotFound: .nodeNotFound
            case .timeout: .timeout
            }
        self.init(name, error.message)
    }
}
