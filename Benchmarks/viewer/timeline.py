"""What a long run's timeline costs the service: `rehearse view Benchmarks/viewer/long-run.yaml`
(a 5,000 s run ticking at 60 Hz), measured from outside with plain WebSocket clients:

1. start: from launching the viewer to its readiness line, and to a first page's hello;
2. a scrub to the end of the run from one page, and while it is simulated, how long another page
   that connects waits for its hello (the service's thread answers it, or is busy);
3. how long the scrubbed scene takes to come;
4. SIGTERM sent right after another scrub: how long the process takes to exit.

usage: python3 Benchmarks/viewer/timeline.py [REHEARSE]   (default: .build/debug/rehearse)"""

import base64
import json
import os
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REHEARSE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/rehearse")
RUN = os.path.join(ROOT, "Benchmarks/viewer/long-run.yaml")


class Page:
    """A WebSocket client as a page would be, without a browser."""

    def __init__(self, port):
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        self.connection.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                 "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.connection.recv(65536)
        self.buffer = self.buffer.split(b"\r\n\r\n", 1)[1]
        self.pending = b""

    def send(self, command):
        payload = json.dumps(command).encode()
        mask = os.urandom(4)
        self.connection.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _bytes(self, count):
        while len(self.buffer) < count:
            chunk = self.connection.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def message(self):
        """The next whole text message (continuation frames joined; pings answered)."""
        while True:
            first, second = self._bytes(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(self._bytes(2), "big")
            elif length == 127:
                length = int.from_bytes(self._bytes(8), "big")
            payload = self._bytes(length)
            opcode = first & 0x0F
            if opcode == 0x9:
                mask = os.urandom(4)
                self.connection.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
                continue
            if opcode in (0x1, 0x0):
                self.pending += payload
                if first & 0x80:
                    text, self.pending = self.pending, b""
                    return json.loads(text)

    def wait_for(self, condition):
        while True:
            message = self.message()
            if condition(message):
                return message


def main():
    launched = time.monotonic()
    process = subprocess.Popen([REHEARSE, "view", RUN, "--http", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    url = next(word for word in process.stdout.readline().split() if word.startswith("http://"))
    ready = time.monotonic() - launched
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    first = Page(port)
    first.wait_for(lambda message: message["type"] == "hello")
    hello = time.monotonic() - launched
    print("start: readiness line after %.2f s, a first page's hello after %.2f s" % (ready, hello))
    first.wait_for(lambda message: message["type"] == "frame")

    scrubbed = time.monotonic()
    first.send({"type": "scrub", "value": 4999})
    time.sleep(0.05)
    connecting = time.monotonic()
    second = Page(port)
    second.wait_for(lambda message: message["type"] == "hello")
    print("another page's hello while the scrub is simulated: %.3f s" % (time.monotonic() - connecting))
    first.wait_for(lambda message: message["type"] == "frame" and message["review"] == 4999)
    print("the scene at 4,999 s came %.2f s after the scrub" % (time.monotonic() - scrubbed))

    first.send({"type": "scrub", "value": 4998})
    time.sleep(0.05)
    terminated = time.monotonic()
    process.terminate()
    process.wait(timeout=120)
    print("SIGTERM during a scrub: exited after %.2f s" % (time.monotonic() - terminated))


if __name__ == "__main__":
    main()
