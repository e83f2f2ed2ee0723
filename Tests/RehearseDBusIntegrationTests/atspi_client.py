#!/usr/bin/python3
"""An AT-SPI client that never heard of Rehearse: pyatspi (Debian's python3-pyatspi, on libatspi)
finds an application by name among the desktop's and drives it. Run by AccessibilityBusTests with
DBUS_SESSION_BUS_ADDRESS set to a private bus whose org.a11y.Bus is at-spi2-core's bus launcher.

  tree APP            print APP's accessible tree: one line per object, indented by depth,
                      "role: name [states] (x, y, width, height)", states sorted
  click APP ROLE NAME find the object of ROLE (its role name: "text") named NAME, print its
                      actions, do its first ("click") and wait for its focused state-changed event
                      (at most 10 s); print the event and the object's states after it
  listen APP KIND...   print each event of the KINDs (pyatspi's names: object:state-changed:showing)
                      from APP as it comes, after a line "listening"; until killed
  act APP ROLE NAME ACTION
                      find the object of ROLE named NAME, print its actions' names and do the
                      one named ACTION; print what doAction answered, or that it has none so named
  text APP ROLE NAME   print the Text of the object of ROLE named NAME: its text (getText(0, -1)),
                      characterCount and caretOffset, one line
  type APP ROLE NAME TEXT
                      insert TEXT into the object of ROLE named NAME (EditableText) and wait for
                      its text-changed:insert event (at most 10 s); print the event
"""
import sys

import pyatspi
from gi.repository import GLib

WAIT_SECONDS = 10


def application(name):
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        child = desktop.getChildAtIndex(index)
        if child is not None and child.name == name:
            return child
    names = [desktop.getChildAtIndex(index).name for index in range(desktop.childCount)]
    sys.exit(f"no application {name!r} on the desktop; there are {names}")


def states(node):
    return sorted(pyatspi.stateToString(state) for state in node.getState().getStates())


def describe(node):
    line = f"{node.getRoleName()}: {node.name} [{', '.join(states(node))}]"
    if "Component" in pyatspi.listInterfaces(node):
        extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        line += f" ({extents.x}, {extents.y}, {extents.width}, {extents.height})"
    return line


def tree(node, depth=0):
    print("  " * depth + describe(node))
    for child in node:
        tree(child, depth + 1)


def find(app, role, name):
    found = pyatspi.findDescendant(app, lambda node: node.getRoleName() == role and node.name == name)
    if found is None:
        sys.exit(f"no {role} named {name!r}")
    return found


def click(app, role, name):
    found = find(app, role, name)
    action = found.queryAction()
    print("actions:", [action.getName(index) for index in range(action.nActions)])
    loop = GLib.MainLoop()
    seen = []

    def on_focus(event):
        if event.source == found and event.detail1 == 1:
            seen.append(f"{event.type} detail1={event.detail1} on {event.source.getRoleName()}: {event.source.name}")
            pyatspi.Registry.stop()

    pyatspi.Registry.registerEventListener(on_focus, "object:state-changed:focused")
    print("done:", action.doAction(0))
    GLib.timeout_add_seconds(WAIT_SECONDS, lambda: pyatspi.Registry.stop())
    pyatspi.Registry.start()
    print("event:", seen[0] if seen else f"none within {WAIT_SECONDS} s")
    print("states:", ", ".join(states(found)))


def act(app, role, name, wanted):
    action = find(app, role, name).queryAction()
    names = [action.getName(index) for index in range(action.nActions)]
    print("actions:", names)
    if wanted not in names:
        print(f"no action {wanted!r}")
        return
    print("done:", action.doAction(names.index(wanted)))


def type_text(app, role, name, text):
    found = find(app, role, name)
    seen = []

    def on_text(event):
        if event.source == found:
            seen.append(f"{event.type} at {event.detail1}, {event.detail2} characters: {event.any_data}")
            pyatspi.Registry.stop()

    pyatspi.Registry.registerEventListener(on_text, "object:text-changed:insert")
    print("inserted:", found.queryEditableText().insertText(0, text, len(text)))
    GLib.timeout_add_seconds(WAIT_SECONDS, lambda: pyatspi.Registry.stop())
    pyatspi.Registry.start()
    print("event:", seen[0] if seen else f"none within {WAIT_SECONDS} s")


def text(app, role, name):
    found = find(app, role, name).queryText()
    print(f"{found.getText(0, -1)!r}, {found.characterCount} characters, caret at {found.caretOffset}")


def listen(app, kinds):
    """Prints each event of `kinds` from APP as it comes, after a line saying it listens."""
    def on_event(event):
        if event.host_application == app:
            source = event.source
            data = event.any_data
            if isinstance(data, pyatspi.Accessible):
                try:
                    data = f"{data.getRoleName()}: {data.name}"
                except Exception:  # a removed child is no object any more
                    data = "gone"
            elif hasattr(data, "width"):  # bounds: an Atspi.Rect
                data = f"{data.x}, {data.y}, {data.width}, {data.height}"
            print(f"{event.type} detail1={event.detail1} on {source.getRoleName()}: {source.name} ({data})", flush=True)

    for kind in kinds:
        pyatspi.Registry.registerEventListener(on_event, kind)
    print("listening", flush=True)
    pyatspi.Registry.start()


def main():
    command, app = sys.argv[1], application(sys.argv[2])
    if command == "tree":
        tree(app)
    elif command == "click":
        click(app, sys.argv[3], sys.argv[4])
    elif command == "act":
        act(app, sys.argv[3], sys.argv[4], sys.argv[5])
    elif command == "listen":
        listen(app, sys.argv[3:])
    elif command == "text":
        text(app, sys.argv[3], sys.argv[4])
    elif command == "type":
        type_text(app, sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit(f"unknown command {command}")


main()
