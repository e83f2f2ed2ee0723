import CDBus
import RehearseCore
import RehearseDBusWire
import RehearseSession
import RehearseSupport

/// The introspection data the service answers `Introspect` with, on its object and on the paths
/// above it (so `busctl tree` and `gdbus introspect -r` find it), with the event vocabulary of the
/// simulation it serves.
package enum Introspection {
    package static let doctype =
        #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#

    /// `Introspectable` and `Peer`, which the plugin connection's host answers too.
    package static let introspectableAndPeer = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>
        """

    package static let standardInterfaces =
        introspectableAndPeer + "\n" + """
              <interface name="org.freedesktop.DBus.Properties">
                <method name="Get">
                  <arg name="interface_name" type="s" direction="in"/>
                  <arg name="property_name" type="s" direction="in"/>
                  <arg name="value" type="v" direction="out"/>
                </method>
                <method name="GetAll">
                  <arg name="interface_name" type="s" direction="in"/>
                  <arg name="properties" type="a{sv}" direction="out"/>
                </method>
                <method name="Set">
                  <arg name="interface_name" type="s" direction="in"/>
                  <arg name="property_name" type="s" direction="in"/>
                  <arg name="value" type="v" direction="in"/>
                </method>
                <signal name="PropertiesChanged">
                  <arg name="interface_name" type="s"/>
                  <arg name="changed_properties" type="a{sv}"/>
                  <arg name="invalidated_properties" type="as"/>
                </signal>
              </interface>
            """

    /// The simulator interface after its methods (which ``SimulatorMethod`` describes): its
    /// signal and its properties (``SessionProperty``).
    package static let simulatorSignalsAndProperties = """
            <signal name="Event">
              <arg name="sequence" type="t"/>
              <arg name="time" type="d"/>
              <arg name="name" type="s"/>
              <arg name="fields" type="a{sv}"/>
              <!-- events -->
            </signal>

        """ + SessionProperty.allCases.map(\.introspection).joined() + "  </interface>"

    /// The XML for `path`, or `nil` for a path that is neither an object nor above one. An object
    /// (`events` given: the vocabulary of its simulation) has the whole interface; the `Event`
    /// signal lists the names it carries, one annotation each: `org.rehearse.Event.NAME` with the
    /// fields and who emits it. Every path lists the nodes below it, so `busctl tree` and
    /// `gdbus introspect -r` find the sessions too.
    /// The reply to `message` when it calls `Introspect` (on no interface or on
    /// `org.freedesktop.DBus.Introspectable`) at a `path` that has something to show; nil otherwise.
    /// The one answer to it, for the service's objects and for every session's.
    package static func reply(
        to message: OpaquePointer, at path: String, objectPaths: [String],
        events: @autoclosure () -> [EventDescription]?
    ) -> MessageWriter? {
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        guard dbus_message_get_member(message).map({ String(cString: $0) }) == "Introspect",
            interface == nil || interface == "org.freedesktop.DBus.Introspectable",
            let xml = xml(for: path, objectPaths: objectPaths, events: events())
        else { return nil }
        var reply = MessageWriter()
        reply.append(xml)
        return reply
    }

    package static func xml(for path: String, objectPaths: [String], events: [EventDescription]?) -> String? {
        let prefix = path == "/" ? "/" : path + "/"
        var children: [String] = []
        for objectPath in objectPaths where objectPath.hasPrefix(prefix) {
            let child = String(objectPath.dropFirst(prefix.count).prefix { $0 != "/" })
            if !children.contains(child) { children.append(child) }
        }
        guard events != nil || !children.isEmpty else { return nil }
        let nodes = children.map { "  <node name=\"\($0)\"/>\n" }.joined()
        guard let events else { return doctype + "\n<node>\n" + standardInterfaces + "\n" + nodes + "</node>\n" }
        let annotations = events.map { event in
            let value = XMLText.escape("\(event.fields.isEmpty ? "no fields" : event.fields): \(event.summary)")
            return "      <annotation name=\"org.rehearse.Event.\(XMLText.escape(event.name))\" value=\"\(value)\"/>\n"
        }
        let interface =
            "  <interface name=\"\(SimulatorInterface.interface)\">\n"
            + SimulatorMethod.allCases.map(\.introspection).joined()
            + simulatorSignalsAndProperties.replacingOccurrences(of: "      <!-- events -->\n", with: annotations.joined())
        return doctype + "\n<node>\n" + standardInterfaces + "\n" + interface + nodes + "\n</node>\n"
    }
}
