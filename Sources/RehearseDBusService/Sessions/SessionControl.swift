import CDBus
import RehearseCore
import RehearseDBusInterface

/// What creates and closes sessions when an object is asked to: the service, which knows who
/// called and owns the sessions' lifetimes.
protocol SessionControl: AnyObject {
    /// Creates a session from `setup` (`CreateSession`'s argument) owned by the sender of `call`
    /// and returns its object path, or nil when the host answers `call` itself, later.
    func createSession(_ setup: Fields, for call: OpaquePointer) throws(MethodFailure) -> String?
    /// Ends the session at `path`.
    func closeSession(at path: String) throws(MethodFailure)
    /// `RegisterPlugin`: the caller of the call being answered is the plugin `declaration`.
    func registerPlugin(_ declaration: RemotePluginDeclaration) throws(MethodFailure)
}
