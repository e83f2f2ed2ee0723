#!/usr/bin/env python3
"""Where the CPU of the sessions benchmark's `form` workload goes, per cycle: the service's own
threads (its connection thread), the sessions' threads, and the C clients, read from /proc (user
+ system time).
Their sum bounds what two cores can do, whatever threads the work is spread over:
at most 2 s of CPU per second, so at most 2e6 / (CPU microseconds per cycle) cycles per second.

  Usage: python3 Benchmarks/dbus/sessions-cpu.py [CYCLES]   (after `swift build -c release`; default 3000)

It starts `rehearse serve --no-bus --mode manual --listen` (release) itself, builds
session_client.c, and runs one client, then two at once. Its last lines, which Benchmarks/ratios.py
reads, give two clients' cycles per second over one's (`ratio: two sessions / one, form
(sessions-cpu.py): VALUE`), the most that could be on two cores (the bound above over one client's
rate), two clients' rate over that bound (whether two sessions use both cores) and the CPU a
cycle takes with two clients over with one (whether they slow each other down).
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(stat_path):
    """User + system CPU seconds from a /proc stat file."""
    with open(stat_path) as stat:
        text = stat.read()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def thread_times(pid, service_threads):
    """CPU seconds of the service: its own threads (those it had before any client came, its
    connection thread among them) and the rest (each session's thread, which ends with its
    session, and the thread that builds sessions), the process's total, which counts ended
    threads too, minus its own. Linux threads inherit their creator's name, so names cannot
    tell them apart. One of its own threads that ended since (a pool's) is left out of both
    readings from then on: what it used counts among the rest."""
    own = 0.0
    for tid in sorted(service_threads):
        try:
            own += cpu_seconds(f"/proc/{pid}/task/{tid}/stat")
        except FileNotFoundError:
            service_threads.discard(tid)
    return {"service threads": own, "session threads": cpu_seconds(f"/proc/{pid}/stat") - own}


def run_clients(client, address, count, clients):
    """Runs `clients` clients at once; returns (wall seconds, their CPU seconds, cycles in all)."""
    start = time.monotonic()
    before = os.times()
    processes = [subprocess.Popen([client, address, "form", str(count)], stdout=subprocess.DEVNULL) for _ in range(clients)]
    for process in processes:
        process.wait()
    after = os.times()
    wall = time.monotonic() - start
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, count * clients


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    work = tempfile.mkdtemp()
    client = os.path.join(work, "session_client")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "dbus-1"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["gcc", "-O2", "-o", client, os.path.join(HERE, "session_client.c")] + flags, check=True)
    socket = os.path.join(work, "peer.sock")
    address = f"unix:path={socket}"
    service = subprocess.Popen([os.path.join(ROOT, ".build/release/rehearse"), "serve", "--no-bus", "--mode", "manual",
                                "--listen", address], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(socket):
            time.sleep(0.05)
        service_threads = set(os.listdir(f"/proc/{service.pid}/task"))
        run_clients(client, address, 200, 1)  # warm up
        rates = {}
        ceilings = {}
        for clients in (1, 2):
            before = thread_times(service.pid, service_threads)
            wall, client_cpu, cycles = run_clients(client, address, count, clients)
            after = thread_times(service.pid, service_threads)
            parts = {kind: after.get(kind, 0) - before.get(kind, 0) for kind in after}
            parts["clients"] = client_cpu
            total = sum(parts.values())
            rates[clients] = cycles / wall
            ceilings[clients] = 2 * cycles / total
            print(f"{clients} client(s): {rates[clients]:,.0f} cycles/s, CPU per cycle: "
                  + ", ".join(f"{kind} {1e6 * seconds / cycles:.0f} us" for kind, seconds in sorted(parts.items()))
                  + f"; in all {1e6 * total / cycles:.0f} us, so two cores do at most {ceilings[clients]:,.0f} cycles/s")
        print(f"ratio: two sessions / one, form (sessions-cpu.py): {rates[2] / rates[1]:.2f}")
        # What two sessions could do at most against one, on two cores: the second session only has
        # the CPU the first leaves idle (about a third of a core at 1.7 cores for one).
        print(f"ratio: two sessions / one at most on two cores, form (sessions-cpu.py): {ceilings[2] / rates[1]:.2f}")
        print(f"ratio: two sessions, share of what two cores do, form (sessions-cpu.py): {rates[2] / ceilings[2]:.2f}")
        print(f"ratio: CPU per cycle, two sessions / one, form (sessions-cpu.py): {ceilings[1] / ceilings[2]:.2f}")
    finally:
        service.terminate()
        service.wait()


if __name__ == "__main__":
    main()
