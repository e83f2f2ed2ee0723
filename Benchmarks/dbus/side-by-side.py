#!/usr/bin/env python3
"""Sequential `Inject` round trips of client.c against the C echo (echo_service.c) and against one
or more `rehearse` binaries, all side by side on one private bus, the services taken in turn and
their order rotated every round, so that every build meets the same machine (compare.sh runs one
service after another, and on a shared machine the C echo's own rate moves by 3x between runs).
Each service runs twice: on the bus and listening for peers (`daemon` and `peer` rows), and with
no bus (`alone`). Prints the medians, Rehearse / C for each binary, and each service's CPU per call
(user + system from /proc, in ticks of 1/CLK_TCK s), then `ratio:` lines for Benchmarks/ratios.py
(of the first binary).

  Usage: python3 Benchmarks/dbus/side-by-side.py ROUNDS BINARY...   (after scripts/install-deps)
  e.g.   python3 Benchmarks/dbus/side-by-side.py 5 /tmp/main/rehearse .build/release/rehearse
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CALLS = 5000
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={folder}/bus.sock</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>"""


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid`."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(path):
    while not os.path.exists(path):
        time.sleep(0.05)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds, binaries = int(sys.argv[1]), sys.argv[2:]
    folder = tempfile.mkdtemp()
    flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "dbus-1"], text=True).split()
    subprocess.check_call(["gcc", "-O2", "-o", f"{folder}/echo", f"{HERE}/echo_service.c"] + flags)
    subprocess.check_call(["gcc", "-O2", "-o", f"{folder}/client", f"{HERE}/client.c"] + flags + ["-lm"])
    with open(f"{folder}/bus.conf", "w") as config:
        config.write(BUS_CONFIG.format(folder=folder))
    processes = []

    def start(arguments, **options):
        process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
        processes.append(process)
        return process

    try:
        start(["dbus-daemon", f"--config-file={folder}/bus.conf", "--nofork"])
        wait_for(f"{folder}/bus.sock")
        bus = f"unix:path={folder}/bus.sock"
        environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus)
        # label -> {place: (address, destination, process)}
        services = {"C": {
            "daemon": (bus, "org.rehearse.Echo", None),
            "peer": (f"unix:path={folder}/C-peer.sock", "peer", None),
            "alone": (f"unix:path={folder}/C-alone.sock", "peer", None),
        }}
        on_bus = start([f"{folder}/echo", bus, services["C"]["peer"][0]])
        alone = start([f"{folder}/echo", "none", services["C"]["alone"][0]])
        services["C"] = {place: (address, destination, alone if place == "alone" else on_bus)
                         for place, (address, destination, _) in services["C"].items()}
        for index, binary in enumerate(binaries):
            label = f"#{index + 1}"
            name = f"org.rehearse.Build{index + 1}"
            peer, lone = f"unix:path={folder}/{index}-peer.sock", f"unix:path={folder}/{index}-alone.sock"
            on_bus = start([binary, "serve", "--name", name, "--mode", "manual", "--listen", peer], env=environment)
            alone = start([binary, "serve", "--no-bus", "--mode", "manual", "--listen", lone])
            services[label] = {"daemon": (bus, name, on_bus), "peer": (peer, "peer", on_bus), "alone": (lone, "peer", alone)}
        for label in services:
            for place in ("peer", "alone"):
                wait_for(services[label][place][0].removeprefix("unix:path="))
        time.sleep(1)

        results = {}  # (label, place) -> [(calls per second, CPU microseconds per call)]
        load_before = open("/proc/loadavg").read().split()[0]
        labels = list(services)
        for round_number in range(rounds):
            order = labels[round_number % len(labels):] + labels[:round_number % len(labels)]
            for place in ("daemon", "peer", "alone"):
                for label in order:
                    address, destination, process = services[label][place]
                    before = cpu_seconds(process.pid)
                    output = subprocess.check_output(
                        [f"{folder}/client", address, destination, "sequential", str(CALLS)], text=True)
                    used = cpu_seconds(process.pid) - before
                    rate = float(output.split(":")[1].strip(" }\n"))
                    results.setdefault((label, place), []).append((rate, used / CALLS * 1e6))
        load_after = open("/proc/loadavg").read().split()[0]
    finally:
        for process in processes:
            process.kill()

    print(f"{rounds} rounds of {CALLS:,} sequential calls, 1-minute load {load_before} to {load_after}")
    for index, binary in enumerate(binaries):
        print(f"#{index + 1}: {binary}")
    for place in ("daemon", "peer", "alone"):
        c_rate = statistics.median(rate for rate, _ in results["C", place])
        line = f"{place:6}  C {c_rate:7,.0f}/s {statistics.median(cpu for _, cpu in results['C', place]):4.0f} us"
        for label in labels[1:]:
            rate = statistics.median(rate for rate, _ in results[label, place])
            cpu = statistics.median(cpu for _, cpu in results[label, place])
            line += f" | {label} {rate:7,.0f}/s {rate / c_rate:.2f} {cpu:4.0f} us"
        print(line)
    names = {"daemon": "through the daemon, sequential", "peer": "peer-to-peer, sequential",
             "alone": "peer-to-peer with no bus, sequential"}
    for place, name in names.items():
        c_rate = statistics.median(rate for rate, _ in results["C", place])
        rate = statistics.median(rate for rate, _ in results["#1", place])
        print(f"ratio: D-Bus {name}, Rehearse / C echo: {rate / c_rate:.2f}")


if __name__ == "__main__":
    main()
