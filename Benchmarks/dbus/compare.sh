#!/usr/bin/env bash
# Rehearse's D-Bus service against a minimal C libdbus echo service (echo_service.c), with the
# same C client (client.c), in one run on a private bus: Inject round trips sequential and with 64
# in flight, through the daemon and peer-to-peer (services on the bus that also listen for peers,
# and services with no bus: `--no-bus`), then inject-to-signal latency and realtime tick jitter at
# 120 Hz. Prints every round, then medians, then the ratios that have goals as `ratio: FIGURE: VALUE`
# lines (Benchmarks/ratios.py prints them with their goals: compare.sh | python3 Benchmarks/ratios.py).
#   Usage: Benchmarks/dbus/compare.sh [ROUNDS]   (after scripts/install-deps; default 5 rounds)
#   REHEARSE=BINARY compare.sh measures that `rehearse` instead of building this checkout's release.
set -euo pipefail
rounds="${1:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

flags="$(pkg-config --cflags --libs dbus-1)"
gcc -O2 -o "$work/echo_service" "$here/echo_service.c" $flags
gcc -O2 -o "$work/client" "$here/client.c" $flags -lm
if [ -n "${REHEARSE:-}" ]; then
    rehearse="$REHEARSE"
else
    (cd "$root" && swift build -c release --product rehearse >/dev/null)
    rehearse="$root/.build/release/rehearse"
fi

cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$work/bus.sock</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork 2>/dev/null &
bus="unix:path=$work/bus.sock"
until [ -S "$work/bus.sock" ]; do sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS="$bus"

"$work/echo_service" "$bus" "unix:path=$work/echo-peer.sock" 2>/dev/null &
"$rehearse" serve --mode manual --listen "unix:path=$work/rehearse-peer.sock" 2>/dev/null &
"$work/echo_service" none "unix:path=$work/echo-alone.sock" &
"$rehearse" serve --no-bus --mode manual --listen "unix:path=$work/rehearse-alone.sock" 2>/dev/null &
sleep 1
echo "load average at the start: $(cut -d ' ' -f 1-3 /proc/loadavg)"

# measure FIGURE CLIENT-ARGUMENTS...: runs the client, prints the figure, keeps its numbers.
measure() {
    local figure="$1"; shift
    local result
    result="$("$work/client" "$@" | sed 's/[{}"]//g')"
    printf '  %-44s %s\n' "$figure:" "$result"
    echo "$figure|$result" >> "$work/results"
}
for round in $(seq "$rounds"); do
    echo "round $round"
    for mode in sequential pipelined; do
        count=$([ "$mode" = sequential ] && echo 5000 || echo 50000)
        measure "C echo,   daemon, $mode" "$bus" org.rehearse.Echo "$mode" "$count"
        measure "C echo,   peer,   $mode" "unix:path=$work/echo-peer.sock" peer "$mode" "$count"
        measure "Rehearse, daemon, $mode" "$bus" org.rehearse.Simulator "$mode" "$count"
        measure "Rehearse, peer,   $mode" "unix:path=$work/rehearse-peer.sock" peer "$mode" "$count"
        measure "C echo,   alone,  $mode" "unix:path=$work/echo-alone.sock" peer "$mode" "$count"
        measure "Rehearse, alone,  $mode" "unix:path=$work/rehearse-alone.sock" peer "$mode" "$count"
    done
    measure "C echo,   inject-to-signal" "$bus" org.rehearse.Echo latency 2000
    measure "Rehearse, inject-to-signal" "$bus" org.rehearse.Simulator latency 2000
done
"$rehearse" serve --name org.rehearse.Realtime --scenario "$here/jitter.yaml" 2>/dev/null &
sleep 1
measure "Rehearse, realtime 120 Hz tick jitter" "$bus" org.rehearse.Realtime jitter 1200

echo "load average at the end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "medians of $rounds rounds (calls per second; ratios are of the medians)"
python3 - "$work/results" <<'PY'
import collections, statistics, sys
values = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    figure, result = line.rstrip("\n").split("|")
    for pair in result.split(","):
        key, number = pair.split(":")
        values[figure][key.strip()].append(float(number))
median = {f: {k: statistics.median(v) for k, v in keys.items()} for f, keys in values.items()}
ratio = {}  # (place, mode): Rehearse / C
for mode in ("sequential", "pipelined"):
    rate = {f: m["calls_per_second"] for f, m in median.items() if f.endswith(mode)}
    c = {place: rate[f"C echo,   {place + ',':7} {mode}"] for place in ("daemon", "peer", "alone")}
    r = {place: rate[f"Rehearse, {place + ',':7} {mode}"] for place in ("daemon", "peer", "alone")}
    for place in ("daemon", "peer", "alone"):
        ratio[place, mode] = r[place] / c[place]
        print(f"{mode if place == 'daemon' else '':>10}  {place:6}  C {c[place]:7.0f}  Rehearse {r[place]:7.0f}  "
              f"Rehearse/C {ratio[place, mode]:.2f}")
    for place in ("peer", "alone"):
        print(f"{'':>10}  {place}/daemon  C {c[place] / c['daemon']:.2f}  Rehearse {r[place] / r['daemon']:.2f}")
for figure, keys in median.items():
    if "calls_per_second" not in keys:
        print(f"{figure}: " + ", ".join(f"{k} {v:.3f}" for k, v in keys.items()))
# The figures with a goal, in the form ratios.py reads.
for place, mode, name in (("daemon", "sequential", "through the daemon, sequential"),
                          ("daemon", "pipelined", "through the daemon, 64 in flight"),
                          ("peer", "sequential", "peer-to-peer, sequential"),
                          ("alone", "sequential", "peer-to-peer with no bus, sequential")):
    print(f"ratio: D-Bus {name}, Rehearse / C echo: {ratio[place, mode]:.2f}")
PY
