import CDBus
import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// The calls the export answers: on every path, an answer or a named error.
extension AccessibilityExport {
    /// What a path names now.
    enum Target {
        case application
        case cache
        case node(AccessibleTree.Item)
    }

    static let accessible = "org.a11y.atspi.Accessible"
    static let application = "org.a11y.atspi.Application"
    static let component = "org.a11y.atspi.Component"
    static let action = "org.a11y.atspi.Action"
    static let editableText = "org.a11y.atspi.EditableText"
    static let text = "org.a11y.atspi.Text"
    static let cacheInterface = "org.a11y.atspi.Cache"
    static let properties = "org.freedesktop.DBus.Properties"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"

    /// Answers `call` from the scene now: a reply, or an error reply naming what was wrong.
    func answer(_ call: OpaquePointer, session: SimulatorSession) {
        let path = dbus_message_get_path(call).map { String(cString: $0) } ?? ""
        let interface = dbus_message_get_interface(call).map { String(cString: $0) } ?? ""
        let member = dbus_message_get_member(call).map { String(cString: $0) } ?? ""
        let signature = dbus_message_get_signature(call).map { String(cString: $0) } ?? ""
        var reply = OutgoingMessage.reply(to: call)
        do throws(MethodFailure) {
            let target = try self.target(at: path, in: session)
            var request = Request(member: member, signature: signature, reader: MessageReader(call))
            try respond(to: &request, of: interface, on: target, session: session, into: &reply.body)
        } catch {
            send(error, to: call)
            return
        }
        if dbus_message_get_no_reply(call) == 0 { send(reply) }
    }

    /// `Peer.GetMachineId`'s answer: this machine's D-Bus id (empty when it has none).
    static let machineID: String = {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let id = dbus_try_get_local_machine_id(&error) else { return "" }
        defer { dbus_free(id) }
        return String(cString: id)
    }()

    /// The object at `path`, or UnknownObject.
    private func target(at path: String, in session: SimulatorSession) throws(MethodFailure) -> Target {
        switch path {
        case AccessiblePaths.root: return .application
        case AccessiblePaths.cache: return .cache
        default:
            // A path longer than every node's is refused unread: decoding (and quoting) megabytes
            // held the thread that serves the session for seconds.
            let longest = tree(of: session).longestPathBytes
            guard path.utf8.count <= longest else {
                throw MethodFailure(
                    .unknownObject,
                    "no accessible object at a path of \(path.utf8.count) bytes: no node's is longer than \(longest) now")
            }
            guard let id = AccessiblePaths.id(at: path) else {
                throw MethodFailure(
                    .unknownObject,
                    "no accessible object at \(path): objects are \(AccessiblePaths.root) and \(AccessiblePaths.nodePrefix)ID")
            }
            guard let item = tree(of: session)[id] else {
                throw MethodFailure(
                    .unknownObject, "no accessible object at \(path): the scene has no visible node \"\(id)\" now")
            }
            return .node(item)
        }
    }

    /// The interfaces `target` has besides the standard ones.
    func interfaces(of target: Target) -> [String] {
        switch target {
        case .application: [Self.accessible, Self.application]
        case .cache: [Self.cacheInterface]
        case .node(let item):
            [Self.accessible, Self.component] + (Self.actions(of: item).isEmpty ? [] : [Self.action])
                + (item.text != nil ? [Self.text] : []) + (item.isEditable ? [Self.editableText] : [])
        }
    }

    private func respond(
        to request: inout Request, of interface: String, on target: Target, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        switch interface {
        case Self.properties: try respondToProperties(&request, on: target, session: session, into: &reply)
        case Self.peer where request.member == "Ping": try request.expect("")
        case Self.peer where request.member == "GetMachineId":
            try request.expect("")
            reply.append(Self.machineID)
        case Self.introspectable where request.member == "Introspect":
            try request.expect("")
            reply.append("<node>" + interfaces(of: target).map { "<interface name=\"\($0)\"/>" }.joined() + "</node>")
        // Every object has these two: another member of them is an unknown method, not interface.
        case Self.peer, Self.introspectable: throw request.unknown(interface)
        case _ where !interfaces(of: target).contains(interface):
            throw MethodFailure(
                .unknownInterface,
                "the object has no interface \"\(interface)\"; it has \(interfaces(of: target).joined(separator: ", "))")
        case Self.accessible: try respondAsAccessible(&request, on: target, session: session, into: &reply)
        case Self.application: try respondAsApplication(&request, into: &reply)
        case Self.cacheInterface:
            guard request.member == "GetItems" else { throw request.unknown(Self.cacheInterface) }
            try request.expect("")
            reply.container(DBusType.array, "((so)(so)(so)iiassusau)") { _ in }
        default:
            guard case .node(let item) = target else { throw request.unknown(interface) }
            switch interface {
            case Self.component: try respondAsComponent(&request, on: item, session: session, into: &reply)
            case Self.action: try respondAsAction(&request, on: item, session: session, into: &reply)
            case Self.text: try respondAsText(&request, on: item, into: &reply)
            default: try respondAsEditableText(&request, on: item, session: session, into: &reply)
            }
        }
    }
}

/// One call's member, signature and arguments.
struct Request {
    let member: String
    let signature: String
    var reader: MessageReader

    /// Fails with InvalidArgs unless the arguments are `signature`.
    func expect(_ signature: String) throws(MethodFailure) {
        guard self.signature == signature else {
            throw MethodFailure(.invalidArgs, "\(member) takes (\(signature)), not (\(self.signature))")
        }
    }

    /// UnknownMethod for this member of `interface`.
    func unknown(_ interface: String) -> MethodFailure {
        MethodFailure(.unknownMethod, "no method \"\(member)\" in \(interface) here")
    }

    mutating func int32() throws(MethodFailure) -> Int32 {
        do { return try reader.int32() } catch { throw MethodFailure(.invalidArgs, "\(member): \(error)") }
    }

    mutating func uint32() throws(MethodFailure) -> UInt32 {
        do { return try reader.uint32() } catch { throw MethodFailure(.invalidArgs, "\(member): \(error)") }
    }

    mutating func string() throws(MethodFailure) -> String {
        do { return try reader.string() } catch { throw MethodFailure(.invalidArgs, "\(member): \(error)") }
    }

    mutating func variant() throws(MethodFailure) -> FieldValue {
        do { return try reader.variant() } catch { throw MethodFailure(.invalidArgs, "\(member): \(error)") }
    }
}
