#!/usr/bin/env bash
# Soak: 8 well-behaved clients pipeline 1,000,000 Injects in all into `rehearse serve --no-bus`
# while one peer never authenticates, one authenticates and stops reading, and one is killed in
# the middle of its stream; a monitor reads every Event signal. Checks every well-behaved call was
# answered, the monitor saw consecutive sequence numbers, the service's memory between 10% and
# 100% of the run, and how long SIGTERM takes at the end.
#   Usage: Benchmarks/dbus/soak.sh [TOTAL]   (after scripts/install-deps; default 1000000)
set -euo pipefail
total="${1:-1000000}"
clients=8
. "$(dirname "$0")/peer-service.sh"
hostile="$root/Tests/RehearseDBusIntegrationTests/hostile_peer.py"

"$rehearse" serve --no-bus --mode manual --listen "$address" 2>"$work/serve.log" &
service=$!
until [ -S "$socket" ]; do sleep 0.05; done

# The misbehaving peers, and a monitor that reads everything.
python3 "$hostile" silent "$socket" 1 600 >/dev/null &
python3 "$hostile" unread "$address" 600 >/dev/null &
"$rehearse" monitor --address "$address" --summary >"$work/monitor.txt" &
monitor=$!
sleep 1

# Memory every half second while the clients run.
(while kill -0 "$service" 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$service/status" 2>/dev/null
    sleep 0.5
done) >"$work/rss.txt" &
sampler=$!

start=$(date +%s.%N)
"$rehearse" inject --address "$address" --times 200000 network online=false >/dev/null 2>&1 &
quitter=$!
pids=()
for client in $(seq 1 "$clients"); do
    "$rehearse" inject --address "$address" --times $((total / clients)) network online=true >"$work/client-$client.txt" 2>&1 &
    pids+=($!)
done
sleep 1
kill -9 "$quitter" 2>/dev/null && wait "$quitter" 2>/dev/null || true
wait "${pids[@]}"
end=$(date +%s.%N)
sleep 1

answered=$(awk '{sum += $1} END {print sum}' "$work"/client-*.txt)
events=$("$rehearse" inject --address "$address" network online=true)
kill -INT "$monitor"; wait "$monitor" 2>/dev/null || true
stop_start=$(date +%s%N)
kill -TERM "$service"
while kill -0 "$service" 2>/dev/null; do sleep 0.001; done
stop_ms=$(( ($(date +%s%N) - stop_start) / 1000000 ))
kill "$sampler" 2>/dev/null || true

echo "well-behaved calls answered: $answered of $total in $(awk "BEGIN {printf \"%.1f\", $end - $start}") s"
cat "$work"/client-*.txt | sed 's/^/  client: /'
echo "events the service delivered (the last call's sequence): $events"
echo "monitor: $(cat "$work/monitor.txt")"
samples=$(wc -l <"$work/rss.txt")
at10=$(sed -n "$((samples / 10 + 1))p" "$work/rss.txt")
at100=$(tail -n 1 "$work/rss.txt")
echo "service RSS: $at10 kB at 10% of the run, $at100 kB at 100% ($(awk "BEGIN {printf \"%+.1f\", ($at100 - $at10) * 100 / $at10}")%), $samples samples"
echo "SIGTERM to exit: $stop_ms ms"
echo "service log:"
sed 's/^/  /' "$work/serve.log"
