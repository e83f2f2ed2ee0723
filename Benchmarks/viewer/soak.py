"""Soak of the live viewer's connection limits: 20,000 idle TCP connections to `rehearse serve
--http` (opened by 4 processes of 5,000 each, since one process may hold at most 20,000
descriptors here), then, with all of them still held open by their clients, a normal page
(`GET /`, a new connection, the whole response) and a D-Bus call (`gdbus call` to the same
service's peer socket: connect, authenticate, `Inject`) must each be answered within 1 s. Then
the clients let go, and the service's memory (VmRSS) and open descriptors are read again: they
must be back to their baseline (descriptors exactly; memory within 10 MB).

usage: python3 Benchmarks/viewer/soak.py [REHEARSE] [CONNECTIONS]
       (default: .build/debug/rehearse, 20000)
Prints one line per figure and exits 1 if a goal is missed."""

import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REHEARSE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/rehearse")
CONNECTIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
WORKERS = 4
ANSWER_GOAL = 1.0
MEMORY_SLACK_KB = 10 * 1024


def service_figures(pid):
    """(VmRSS in kB, open descriptors) of the service."""
    with open("/proc/%d/status" % pid) as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir("/proc/%d/fd" % pid))


def hold(port, count, opened, release):
    """Opens `count` idle connections (sends nothing) and holds them until `release` is set."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sockets, failed = [], 0
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        except OSError:
            failed += 1
    opened.put((len(sockets), failed))
    release.wait()
    closed_by_server = 0
    for connection in sockets:
        connection.setblocking(False)
        try:
            if connection.recv(1) == b"":
                closed_by_server += 1
        except BlockingIOError:
            pass
        except ConnectionResetError:
            closed_by_server += 1
        connection.close()
    opened.put(closed_by_server)


def answered(ask, what):
    """Seconds `ask` took, or None (said why) when it failed or took more than its 10 s timeout."""
    try:
        return ask()
    except (OSError, subprocess.TimeoutExpired, RuntimeError) as error:
        print("%s: not answered (%s)" % (what, error))
        return None


def get_page(port):
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
        response = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            response += chunk
    elapsed = time.monotonic() - started
    if not response.startswith(b"HTTP/1.1 200") or b"</html>" not in response:
        raise RuntimeError("the page was not served: %r" % response[:200])
    return elapsed


def dbus_call(address):
    started = time.monotonic()
    call = subprocess.run(["gdbus", "call", "--address", address, "--dest", "org.rehearse.Simulator", "--object-path", "/org/rehearse/Simulator", "--method",
                           "org.rehearse.Simulator1.Inject", "tap", "{'target': <'username'>}"],
                          capture_output=True, text=True, timeout=10)
    elapsed = time.monotonic() - started
    if call.returncode != 0:
        raise RuntimeError("the D-Bus call failed: " + call.stderr.strip())
    return elapsed


def main():
    work = tempfile.mkdtemp()
    address = "unix:path=" + os.path.join(work, "peer.sock")
    service = subprocess.Popen([REHEARSE, "serve", "--no-bus", "--mode", "manual", "--plugins", "login-animator",
                                "--listen", address, "--http", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    failures = []
    opened, release, workers = multiprocessing.Queue(), multiprocessing.Event(), []
    try:
        ready = service.stdout.readline()
        url = next(word for word in ready.split() if word.startswith("http://"))
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        get_page(port)
        dbus_call(address)
        time.sleep(1)
        baseline = service_figures(service.pid)
        print("baseline: %d kB resident, %d descriptors" % baseline)

        started = time.monotonic()
        workers = [multiprocessing.Process(target=hold, args=(port, CONNECTIONS // WORKERS, opened, release)) for _ in range(WORKERS)]
        for worker in workers:
            worker.start()
        counts = [opened.get() for _ in workers]
        held, failed = sum(count[0] for count in counts), sum(count[1] for count in counts)
        print("opened %d idle connections in %.1f s (%d could not connect)" % (held, time.monotonic() - started, failed))
        peak = service_figures(service.pid)
        print("with them held: %d kB resident, %d descriptors" % peak)
        page, call = answered(lambda: get_page(port), "the page"), answered(lambda: dbus_call(address), "the D-Bus call")
        print("a page answered in %s, a D-Bus call (connect, authenticate, Inject) in %s (goal: each within %.0f s)"
              % tuple(["-" if figure is None else "%.3f s" % figure for figure in (page, call)] + [ANSWER_GOAL]))
        if page is None or call is None or page > ANSWER_GOAL or call > ANSWER_GOAL:
            failures.append("an answer took longer than %.0f s" % ANSWER_GOAL)
        if failed:
            failures.append("%d connections could not be opened" % failed)

        release.set()
        closed = sum(opened.get() for _ in workers)
        for worker in workers:
            worker.join()
        print("the server had closed %d of the %d connections by the time their clients let go" % (closed, held))
        time.sleep(2)
        after = service_figures(service.pid)
        print("after: %d kB resident (%+d kB), %d descriptors (%+d)"
              % (after[0], after[0] - baseline[0], after[1], after[1] - baseline[1]))
        if after[1] != baseline[1] or after[0] - baseline[0] > MEMORY_SLACK_KB:
            failures.append("memory or descriptors not back to baseline")
    finally:
        release.set()
        for worker in workers:
            worker.join(timeout=60)
        service.terminate()
        service.wait(timeout=30)
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
