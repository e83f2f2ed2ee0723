"""A command plugin that greets its connection with a stock D-Bus library's own API, as a plugin
written on that library would, and writes what it got to `stock.out` in its folder (one line each:
the name `Hello` gave and the one a second `Hello` gave, `Ping`'s reply, the machine id, the interfaces introspection shows at the
host's object). Run by PluginConnectionClientTests.

    python3 stock_plugin_client.py jeepney|dbus-fast
"""
import asyncio
import os
import sys

ADDRESS = os.environ["REHEARSE_PLUGIN_ADDRESS"]
HOST = "/org/rehearse/Simulator"
# Peer to peer, no bus routes by name; stock APIs want one all the same.
NAME = "org.rehearse.Simulator"


def with_jeepney():
    from jeepney import DBusAddress, Introspectable, new_method_call
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection
    import xml.etree.ElementTree as tree
    connection = open_dbus_connection(bus=ADDRESS)  # sends Hello
    peer = DBusAddress(HOST, bus_name=NAME, interface="org.freedesktop.DBus.Peer")
    ping = connection.send_and_get_reply(new_method_call(peer, "Ping"))
    machine = connection.send_and_get_reply(new_method_call(peer, "GetMachineId"))
    xml = connection.send_and_get_reply(Introspectable(HOST, NAME).Introspect()).body[0]
    interfaces = sorted(node.get("name") for node in tree.fromstring(xml).iter("interface"))
    again = connection.send_and_get_reply(message_bus.Hello()).body[0]
    return [f"{connection.unique_name} again {again}", f"ping {ping.body}", f"machine {machine.body[0]}", " ".join(interfaces)]


def with_dbus_fast():
    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus

    async def run():
        bus = await MessageBus(bus_address=ADDRESS).connect()  # sends Hello
        ping = await bus.call(Message(destination=NAME, path=HOST, interface="org.freedesktop.DBus.Peer", member="Ping"))
        machine = await bus.call(Message(destination=NAME, path=HOST, interface="org.freedesktop.DBus.Peer",
                                         member="GetMachineId"))
        node = await bus.introspect(NAME, HOST)
        again = await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                                       interface="org.freedesktop.DBus", member="Hello"))
        failed = [reply.body for reply in (ping, machine) if reply.message_type == MessageType.ERROR]
        return [f"{bus.unique_name} again {again.body[0] if again.body else again}", f"ping {ping.body} {failed}", f"machine {machine.body[0] if machine.body else ''}",
                " ".join(sorted(interface.name for interface in node.interfaces))]
    return asyncio.run(asyncio.wait_for(run(), 10))


lines = with_jeepney() if sys.argv[1] == "jeepney" else with_dbus_fast()
with open("stock.out", "w") as out:
    out.write("\n".join(lines) + "\n")
