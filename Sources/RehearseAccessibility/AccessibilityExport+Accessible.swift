import RehearseCore
import RehearseDBusInterface
import RehearseDBusWire
import RehearseSession

/// `org.a11y.atspi.Accessible`, `Application` and the properties of every interface.
extension AccessibilityExport {
    /// What `Accessible` says of an object.
    struct Facts {
        var name: String
        var role: AccessibleRole
        var parent: AccessibleReference
        var children: [AccessibleReference]
        var indexInParent: Int32
        var states: Set<AccessibleState>
        /// The node's id (`AccessibleId`, the `id` attribute); empty for the application.
        var id: String
    }

    /// The application's root object.
    var applicationReference: AccessibleReference { AccessibleReference(name: uniqueName, path: AccessiblePaths.root) }

    /// Node `id`'s object.
    func reference(of id: String) -> AccessibleReference { .node(id, on: uniqueName) }

    /// The null reference, for "no object".
    var nullReference: AccessibleReference { AccessibleReference(name: uniqueName, path: AccessiblePaths.null) }

    func facts(of target: Target, session: SimulatorSession) -> Facts {
        switch target {
        case .application, .cache:
            return Facts(
                name: title, role: .application, parent: desktop, children: [reference(of: Scene.rootID)],
                indexInParent: -1, states: [], id: "")
        case .node(let item):
            let tree = tree(of: session)
            let siblings = item.parent.flatMap { tree[$0]?.children } ?? [item.id]
            return Facts(
                name: item.name, role: item.role, parent: item.parent.map(reference(of:)) ?? applicationReference,
                children: item.children.map(reference(of:)), indexInParent: Int32(siblings.firstIndex(of: item.id) ?? 0),
                states: item.states, id: item.id)
        }
    }

    /// `Accessible`'s methods and their arguments.
    static let accessibleMethods = [
        "GetChildAtIndex": "i", "GetChildren": "", "GetIndexInParent": "", "GetRelationSet": "", "GetRole": "", "GetRoleName": "",
        "GetLocalizedRoleName": "", "GetState": "", "GetAttributes": "", "GetApplication": "", "GetInterfaces": "",
    ]

    func respondAsAccessible(
        _ request: inout Request, on target: Target, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        guard let signature = Self.accessibleMethods[request.member] else { throw request.unknown(Self.accessible) }
        try request.expect(signature)
        let facts = facts(of: target, session: session)
        switch request.member {
        case "GetChildAtIndex":
            let index = try request.int32()
            guard index >= 0, Int(index) < facts.children.count else {
                throw MethodFailure(.invalidArgs, "no child at index \(index): the object has \(facts.children.count)")
            }
            facts.children[Int(index)].appendStruct(to: &reply)
        case "GetChildren":
            reply.container(DBusType.array, "(so)") { array in facts.children.forEach { $0.appendStruct(to: &array) } }
        case "GetIndexInParent": reply.append(facts.indexInParent)
        case "GetRelationSet": reply.container(DBusType.array, "(ua(so))") { _ in }
        case "GetRole": reply.append(facts.role.rawValue)
        case "GetRoleName", "GetLocalizedRoleName": reply.append(facts.role.name)
        case "GetState":
            reply.container(DBusType.array, "u") { array in AccessibleState.words(facts.states).forEach { array.append($0) } }
        case "GetAttributes":
            let attributes = [("toolkit", "Rehearse")] + (facts.id.isEmpty ? [] : [("id", facts.id)])
            reply.container(DBusType.array, "{ss}") { array in
                for (key, value) in attributes.sorted(by: { $0.0 < $1.0 }) {
                    array.container(DBusType.dictEntry, nil) { entry in
                        entry.append(key)
                        entry.append(value)
                    }
                }
            }
        case "GetApplication": applicationReference.appendStruct(to: &reply)
        case "GetInterfaces":
            reply.container(DBusType.array, "s") { array in interfaces(of: target).forEach { array.append($0) } }
        default: throw request.unknown(Self.accessible)
        }
    }

    func respondAsApplication(_ request: inout Request, into reply: inout MessageWriter) throws(MethodFailure) {
        switch request.member {
        case "GetLocale":
            try request.expect("u")
            _ = try request.uint32()
            reply.append(Self.locale)
        case "GetApplicationBusAddress":
            // No peer-to-peer connection: clients stay on the bus, where the daemon's limits apply.
            try request.expect("")
            reply.append("")
        default: throw request.unknown(Self.application)
        }
    }

    /// The locale every object gives: the scene's texts come as the scenario wrote them.
    static let locale = "C"

    /// The properties of `interface` on `target`, in the order `GetAll` gives them.
    func properties(of interface: String, on target: Target, session: SimulatorSession) -> [(String, AccessibleProperty)] {
        guard interfaces(of: target).contains(interface) else { return [] }
        var properties: [(String, AccessibleProperty)] = [("version", .uint32(1))]
        switch interface {
        case Self.accessible:
            let facts = facts(of: target, session: session)
            properties += [
                ("Name", .string(facts.name)), ("Description", .string("")), ("Parent", .reference(facts.parent)),
                ("ChildCount", .int32(Int32(facts.children.count))), ("Locale", .string(Self.locale)),
                ("AccessibleId", .string(facts.id)), ("HelpText", .string("")),
            ]
        case Self.application:
            properties = [
                ("ToolkitName", .string("Rehearse")), ("Version", .string(version)), ("ToolkitVersion", .string(version)),
                ("AtspiVersion", .string("2.1")), ("Id", .int32(applicationID)),
            ]
        case Self.action:
            if case .node(let item) = target { properties.append(("NActions", .int32(Int32(Self.actions(of: item).count)))) }
        case Self.text:
            if case .node(let item) = target { properties += Self.textProperties(of: item) }
        default:
            break
        }
        return properties
    }

    func respondToProperties(
        _ request: inout Request, on target: Target, session: SimulatorSession,
        into reply: inout MessageWriter
    ) throws(MethodFailure) {
        switch request.member {
        case "Get":
            try request.expect("ss")
            let interface = try request.string()
            let name = try request.string()
            guard let value = properties(of: interface, on: target, session: session).first(where: { $0.0 == name })?.1 else {
                throw MethodFailure(.unknownProperty, "no property \"\(name)\" in \"\(interface)\" here")
            }
            value.appendVariant(to: &reply)
        case "GetAll":
            try request.expect("s")
            let interface = try request.string()
            reply.container(DBusType.array, "{sv}") { array in
                for (name, value) in properties(of: interface, on: target, session: session) {
                    array.container(DBusType.dictEntry, nil) { entry in
                        entry.append(name)
                        value.appendVariant(to: &entry)
                    }
                }
            }
        case "Set":
            try request.expect("ssv")
            let interface = try request.string()
            let name = try request.string()
            let value = try request.variant()
            guard properties(of: interface, on: target, session: session).contains(where: { $0.0 == name }) else {
                throw MethodFailure(.unknownProperty, "no property \"\(name)\" in \"\(interface)\" here")
            }
            // The registry numbers the applications it embeds; that number is all a client may set.
            guard interface == Self.application, name == "Id" else {
                throw MethodFailure(.propertyReadOnly, "\(name) is read-only")
            }
            guard case .int(let number) = value, let id = Int32(exactly: number) else {
                throw MethodFailure(.invalidArgs, "Id is an int32")
            }
            applicationID = id
        default:
            throw request.unknown(Self.properties)
        }
    }
}
