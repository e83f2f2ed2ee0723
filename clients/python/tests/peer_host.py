"""The Rehearse end of a plugin's peer-to-peer connection, for tests of plugins in any language.

`PeerHost` listens on a Unix socket of its own, starts a plugin program with
REHEARSE_PLUGIN_ADDRESS and REHEARSE_PLUGIN_ID as Rehearse does, accepts its connection, answers
the server side of the SASL EXTERNAL handshake, and then speaks D-Bus messages with jeepney: it
takes the plugin's `RegisterPlugin` call and calls the plugin's methods. It does only what the
protocol needs, so a test sees exactly what the plugin sent.
"""
import binascii
import os
import socket
import subprocess
import time

from jeepney import HeaderFields, MessageType, Parser
from jeepney import new_error, new_method_return

from rehearse.plugin import peer_method_call

PLUGIN = ("/org/rehearse/Plugin", "org.rehearse.Plugin1")
"""The plugin's object and interface: what `PeerHost.call` calls unless told otherwise."""


class PeerHost:
    """One plugin's connection, host side. Use as a context manager: it ends the plugin's process
    (if it is still running) and removes the socket on the way out."""

    def __init__(self, folder, timeout=10.0):
        self.path = os.path.join(folder, "host.socket")
        self.address = f"unix:path={self.path}"
        self.timeout = timeout
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.listener.settimeout(timeout)
        self.sock = None
        self.process = None
        self.sasl = []
        """The handshake's lines from the plugin, in order, without their CR LF."""
        self._parser = Parser()
        self._serials = iter(range(1, 2 ** 32))
        self._early = []

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()
        for closable in (self.sock, self.listener):
            if closable is not None:
                closable.close()
        if os.path.exists(self.path):
            os.unlink(self.path)
        return False

    def start(self, command, plugin_id="under-test", cwd=None, env=None):
        """Starts `command` as Rehearse starts a plugin, and accepts its connection."""
        environment = {**os.environ, **(env or {}),
                       "REHEARSE_PLUGIN_ADDRESS": self.address, "REHEARSE_PLUGIN_ID": plugin_id}
        self.process = subprocess.Popen(command, cwd=cwd, env=environment, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.accept()
        return self.process

    def accept(self):
        """Accepts the connection and answers its handshake: OK to an EXTERNAL login as this user,
        ERROR to file-descriptor passing, then messages."""
        self.sock, _ = self.listener.accept()
        self.sock.settimeout(self.timeout)
        buffer = self._recv()
        assert buffer[:1] == b"\0", f"the handshake starts with a NUL byte, not {buffer[:1]!r}"
        buffer = buffer[1:]
        while True:
            while b"\r\n" not in buffer:
                buffer += self._recv()
            line, buffer = buffer.split(b"\r\n", 1)
            self.sasl.append(line.decode("ascii"))
            words = line.split()
            if words[:2] == [b"AUTH", b"EXTERNAL"] and len(words) == 3:
                uid = binascii.unhexlify(words[2]).decode("ascii")
                reply = b"OK " + os.urandom(16).hex().encode() if uid == str(os.getuid()) else b"REJECTED EXTERNAL"
            elif words[:1] == [b"AUTH"]:
                reply = b"REJECTED EXTERNAL"
            elif words == [b"BEGIN"]:
                self._parser.add_data(buffer)
                return
            else:
                reply = b"ERROR"
            self.sock.sendall(reply + b"\r\n")

    def _recv(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("the plugin closed its connection")
        return data

    def _next_message(self):
        while (message := self._parser.get_next_message()) is None:
            self._parser.add_data(self._recv())
        return message

    def receive(self):
        """The next message from the plugin (one kept back by `call` first)."""
        return self._early.pop(0) if self._early else self._next_message()

    def send(self, message):
        """Sends `message`; returns its serial."""
        serial = next(self._serials)
        self.sock.sendall(message.serialise(serial=serial))
        return serial

    def registration(self):
        """The plugin's first message, which must be its RegisterPlugin call (not a Hello)."""
        return self.receive()

    def answer(self, call, error=None):
        """Answers `call`: an empty return, or the error `(name, message)`."""
        if error is None:
            self.send(new_method_return(call))
        else:
            self.send(new_error(call, error[0], "s", (error[1],)))

    def call(self, member, signature=None, *body, address=PLUGIN):
        """Calls `member` on the plugin (`address`: object path and interface) and returns the
        reply (a return or an error); other messages that come first are kept for `receive`."""
        serial = self.send(peer_method_call(*address, member, signature, body))
        while True:
            message = self._next_message()
            if message.header.fields.get(HeaderFields.reply_serial) == serial:
                return message
            self._early.append(message)

    def close_and_wait(self, timeout=5.0):
        """Closes the connection as Rehearse does at the end of a run; returns the plugin's exit
        status, or None if it has not exited within `timeout`."""
        self.sock.close()
        self.sock = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return self.process.returncode
            time.sleep(0.01)
        return None


def is_error(message):
    """Whether `message` is an error reply."""
    return message.header.message_type is MessageType.error


def error_name(message):
    """The D-Bus name of an error reply."""
    return message.header.fields.get(HeaderFields.error_name)
