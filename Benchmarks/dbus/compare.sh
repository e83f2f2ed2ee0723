#!/usr/bin/env bash
# Rehearse's D-Bus service against a minimal C libdbus echo service (echo_service.c), with the
# same C client (client.c), in one run on a private bus: Inject round trips sequential and with 64
# in flight through the daemon, the same peer-to-peer (--listen), inject-to-signal latency, and
# realtime tick jitter at 120 Hz.   Usage: Benchmarks/dbus/compare.sh   (after scripts/install-deps)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

flags="$(pkg-config --cflags --libs dbus-1)"
gcc -O2 -o "$work/echo_service" "$here/echo_service.c" $flags
gcc -O2 -o "$work/client" "$here/client.c" $flags -lm
(cd "$root" && swift build -c release --product rehearse >/dev/null)
rehearse="$root/.build/release/rehearse"

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

"$work/echo_service" "$bus" &
"$rehearse" serve --mode manual --listen "unix:path=$work/peer.sock" 2>/dev/null &
sleep 1
run() { "$work/client" "$@" | sed 's/[{}"]//g'; }
for round in 1 2 3; do
    echo "round $round"
    echo "  C echo,   daemon, sequential: $(run "$bus" org.rehearse.Echo sequential 5000)"
    echo "  Rehearse, daemon, sequential: $(run "$bus" org.rehearse.Simulator sequential 5000)"
    echo "  C echo,   daemon, 64 in flight: $(run "$bus" org.rehearse.Echo pipelined 50000)"
    echo "  Rehearse, daemon, 64 in flight: $(run "$bus" org.rehearse.Simulator pipelined 50000)"
    echo "  Rehearse, peer,   sequential: $(run "unix:path=$work/peer.sock" peer sequential 5000)"
    echo "  Rehearse, peer,   64 in flight: $(run "unix:path=$work/peer.sock" peer pipelined 50000)"
    echo "  C echo,   inject-to-signal: $(run "$bus" org.rehearse.Echo latency 2000)"
    echo "  Rehearse, inject-to-signal: $(run "$bus" org.rehearse.Simulator latency 2000)"
done
"$rehearse" serve --name org.rehearse.Realtime --scenario "$here/jitter.yaml" 2>/dev/null &
sleep 1
echo "Rehearse, realtime 120 Hz tick jitter (|lateness - median|): $(run "$bus" org.rehearse.Realtime jitter 1200)"
