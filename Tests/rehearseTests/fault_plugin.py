"""A remote plugin that misbehaves on purpose (docs/remote-plugins.md, "Faults"), written on
jeepney's message layer alone so that it can send what no well-behaved library would.

    python3 fault_plugin.py MODE

It registers as REHEARSE_PLUGIN_ID, declares `fault.seen {count}`, subscribes to `tap`, and answers
Install correctly. Its first Deliver is where MODE applies; until then (and in `well`) it answers
each tap with `emit fault.seen {count}`:

- well: never misbehaves
- slow: answers after 3 s
- silent: never answers
- garbage: answers with the signature `s`
- wrong-types: answers `set {path: 5}`
- too-many: answers 1,025 effects
- huge: answers with a 2 MiB string
- disconnect: exits without answering
- error: answers with the error org.example.Broken
- twice: registers a second time, and keeps the error name it got in its state (`second`)
- wrong-id: registers under another id
- loop: also declares and subscribes to `fault.loop`, and answers every delivery with `emit fault.loop`
- wake-loop: answers with `schedule {after: 0}`, and every Wake with the same
- flood: sends 20,000 calls to the host without reading a reply, then answers
- flood-early: the same before it registers
- tall-keyboard: answers with `emit keyboard.willShow` of a keyboard 1e308 points tall animating
  for 1e300 s, past the limits an injected one is held to
- fork: leaves a child behind (its pid in `child.pid` in its folder) that ignores SIGTERM and
  outlives the connection, then never misbehaves
- escape: as fork, but the child leaves its process group and session (`setsid`) and forks again,
  so that the one left behind (its pid in `escaped.pid`) is nobody's child and in nobody's group
- log: never misbehaves, and appends each call it gets to `calls.log` in its folder, as a line
  `PID MEMBER`
- litter: before it registers, drops into the private folder of its socket a file, a folder with a
  file in it, and links to a file and a folder of its own folder (`outside.txt`, `outside/kept`),
  and writes the private folder's path in `private-folder` (in its folder); then never misbehaves
- zombie: as escape, but the child left behind ends its main thread while another thread runs on
  (/proc shows it as a zombie, though it runs): its pid in `zombie.pid` once it looks so
- deep: before it registers, leaves folders nested DEPTH deep (its second argument) in the
  private folder of its socket, with a file in the innermost, and writes the private folder's path
  in `private-folder`; then never misbehaves
- fill: before it registers, leaves a child that left its session and keeps making folders in the
  private folder of its socket (for 20 s at most), writing its path in `private-folder` and its
  pid in `filler.pid` once it made the first; then never misbehaves
- stall: never answers Install, and writes its pid in `stalled.pid` when it gets it
"""
import ctypes
import os
import signal
import socket
import sys
import threading
import time

from jeepney import DBusAddress, HeaderFields, MessageType, Parser
from jeepney import new_error, new_method_call, new_method_return
from jeepney.bus import get_connectable_addresses
from jeepney.io.blocking import prep_socket

MODE = sys.argv[1]
PLUGIN_ID = os.environ["REHEARSE_PLUGIN_ID"]
HOST = DBusAddress("/org/rehearse/Simulator", bus_name="org.rehearse.Simulator",
                   interface="org.rehearse.PluginHost1")

sock = prep_socket(next(get_connectable_addresses(os.environ["REHEARSE_PLUGIN_ADDRESS"])))
parser = Parser()
serials = iter(range(1, 1 << 31))


def send(message):
    sock.sendall(message.serialise(serial=next(serials)))


def receive():
    while (message := parser.get_next_message()) is None:
        data = sock.recv(65536)
        if not data:
            sys.exit(0)
        parser.add_data(data)
    return message


EVENTS = [("fault.seen", "count", "a tap was answered")]
SUBSCRIPTIONS = ["tap"]
if MODE == "loop":
    EVENTS.append(("fault.loop", "", "it hears its own event and emits it again"))
    SUBSCRIPTIONS.append("fault.loop")


def register(plugin_id):
    send(new_method_call(HOST, "RegisterPlugin", "ssa(sss)asa{sv}", (
        plugin_id, f"misbehaves: {MODE}", EVENTS, SUBSCRIPTIONS, {})))


def flood():
    for _ in range(20_000):
        send(new_method_call(HOST, "Flood"))


def let_go():
    """In a child: ignores SIGTERM and lets go of the output."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)


def linger(pid_file, ready=None):
    """In a child: lets go (`let_go`), writes its pid to `pid_file` (then a byte to the descriptor
    `ready`) and outlives the connection."""
    let_go()
    with open(pid_file, "w") as file:
        file.write(str(os.getpid()))
    if ready is not None:
        os.write(ready, b"x")
    time.sleep(60)
    os._exit(0)


def leave_a_child():
    if os.fork() == 0:
        linger("child.pid")


def escape(stay=lambda ready: linger("escaped.pid", ready)):
    """Leaves a grandchild in no group or session of its own, which runs `stay` with a descriptor
    to write a byte to once it is set; waits for that byte."""
    ready, written = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            stay(written)
        os._exit(0)
    os.waitpid(child, 0)
    os.read(ready, 1)


def zombie_leader(ready):
    """Lets go, and ends its main thread once another runs on, which writes its pid to
    `zombie.pid` (then a byte to `ready`) once /proc shows it as a zombie."""
    let_go()

    def live():
        stat = f"/proc/{os.getpid()}/stat"
        while open(stat).read().rsplit(")", 1)[1].split()[0] != "Z":
            time.sleep(0.001)
        with open("zombie.pid", "w") as file:
            file.write(str(os.getpid()))
        os.write(ready, b"x")
        time.sleep(60)
        os._exit(0)
    threading.Thread(target=live).start()
    ctypes.CDLL(None).pthread_exit(None)


def private_folder():
    """The private folder of the socket, its path written in `private-folder`."""
    address = os.environ["REHEARSE_PLUGIN_ADDRESS"]
    folder = os.path.dirname(address.split("path=", 1)[1].split(",")[0])
    with open("private-folder", "w") as file:
        file.write(folder)
    return folder


def deep(depth):
    descriptor = os.open(private_folder(), os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=descriptor)
        inner = os.open("d", os.O_RDONLY, dir_fd=descriptor)
        os.close(descriptor)
        descriptor = inner
    with open(os.open("file", os.O_WRONLY | os.O_CREAT, dir_fd=descriptor), "w") as file:
        file.write("x")
    os.close(descriptor)


def fill():
    folder = private_folder()
    ready, written = os.pipe()
    if os.fork() == 0:
        os.setsid()
        let_go()
        end, made = time.monotonic() + 20, 0
        while time.monotonic() < end:
            made += 1
            try:
                os.mkdir(f"{folder}/x{made}")
            except OSError:
                pass
            if made == 1:
                with open("filler.pid", "w") as file:
                    file.write(str(os.getpid()))
                os.write(written, b"x")
        os._exit(0)
    os.read(ready, 1)


def litter():
    folder = private_folder()
    os.makedirs("outside", exist_ok=True)
    for path in ("outside.txt", "outside/kept", os.path.join(folder, "dropped")):
        with open(path, "w") as file:
            file.write("x")
    os.makedirs(os.path.join(folder, "inner", "deeper"))
    with open(os.path.join(folder, "inner", "deeper", "file"), "w") as file:
        file.write("x")
    os.symlink(os.path.abspath("outside.txt"), os.path.join(folder, "link"))
    os.symlink(os.path.abspath("outside"), os.path.join(folder, "inner", "folder-link"))


def answer(call, effects, state):
    send(new_method_return(call, "a(sa{sv})a{sv}", (effects, state)))


if MODE == "flood-early":
    flood()
if MODE == "fork":
    leave_a_child()
if MODE == "escape":
    escape()
if MODE == "litter":
    litter()
if MODE == "zombie":
    escape(zombie_leader)
if MODE == "deep":
    deep(int(sys.argv[2]))
if MODE == "fill":
    fill()
register("someone-else" if MODE == "wrong-id" else PLUGIN_ID)
if MODE == "twice":
    register(PLUGIN_ID)
state = {"count": ("x", 0), "second": ("s", "")}
delivered = 0
while True:
    message = receive()
    header = message.header
    if header.message_type is MessageType.error:
        state["second"] = ("s", header.fields.get(HeaderFields.error_name, ""))
        continue
    if header.message_type is not MessageType.method_call:
        continue
    member = header.fields.get(HeaderFields.member)
    if MODE == "log":
        with open("calls.log", "a") as log:
            log.write(f"{os.getpid()} {member}\n")
    if member == "Install" and MODE == "stall":
        with open("stalled.pid", "w") as file:
            file.write(str(os.getpid()))
        continue
    if member == "Install":
        state["count"] = ("x", 0)
        answer(message, [], state)
        continue
    if MODE == "wake-loop" and member == "Wake":
        answer(message, [("schedule", {"after": ("d", 0.0), "tag": ("s", "again")})], state)
        continue
    if MODE == "loop" and header.fields.get(HeaderFields.member) == "Deliver" and message.body[2] == "fault.loop":
        answer(message, [("emit", {"name": ("s", "fault.loop")})], state)
        continue
    delivered += 1
    state["count"] = ("x", delivered)
    seen = [("emit", {"name": ("s", "fault.seen"), "fields": ("a{sv}", {"count": ("x", delivered)})})]
    if delivered > 1 or MODE in ("well", "twice", "flood-early", "fork", "escape", "litter", "log", "zombie", "deep", "fill"):
        answer(message, seen, state)
    elif MODE == "slow":
        time.sleep(3)
        answer(message, seen, state)
    elif MODE == "silent":
        pass
    elif MODE == "garbage":
        send(new_method_return(message, "s", ("nonsense",)))
    elif MODE == "wrong-types":
        answer(message, [("set", {"path": ("x", 5)})], state)
    elif MODE == "too-many":
        answer(message, seen * 1025, state)
    elif MODE == "huge":
        answer(message, [], {"blob": ("s", "x" * (2 << 20))})
    elif MODE == "disconnect":
        sys.exit(0)
    elif MODE == "loop":
        answer(message, [("emit", {"name": ("s", "fault.loop")})], state)
    elif MODE == "wake-loop":
        answer(message, [("schedule", {"after": ("d", 0.0), "tag": ("s", "again")})], state)
    elif MODE == "flood":
        flood()
        answer(message, seen, state)
    elif MODE == "tall-keyboard":
        frame = {"x": ("d", 0.0), "y": ("d", 352.0), "width": ("d", 320.0), "height": ("d", 1e308)}
        answer(message, [("emit", {"name": ("s", "keyboard.willShow"),
                                   "fields": ("a{sv}", {"frame": ("a{sv}", frame), "duration": ("d", 1e300)})})], state)
    elif MODE == "error":
        send(new_error(message, "org.example.Broken", "s", ("it broke",)))
