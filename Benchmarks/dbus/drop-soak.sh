#!/usr/bin/env bash
# Soak: a peer asks for every signal, calls a long `Advance` on `rehearse serve --no-bus` (the
# panner's scroll bar wants every frame) and stops reading, so the service drops it at the
# 8 MiB backlog limit while its own call runs; then another peer's `Get` must be answered. ROUNDS
# times. Prints the rounds, the slowest Get, the service's memory and descriptors before and
# after, and how long SIGTERM takes at the end.
#   Usage: Benchmarks/dbus/drop-soak.sh [ROUNDS]   (after scripts/install-deps; default 1000)
set -euo pipefail
rounds="${1:-1000}"
. "$(dirname "$0")/peer-service.sh"

"$rehearse" serve --no-bus --mode manual --plugins panner --listen "$address" 2>"$work/serve.log" &
service=$!
until [ -S "$socket" ]; do sleep 0.05; done
resources() { echo "$(awk '/VmRSS/ {print $2}' "/proc/$service/status") kB, $(ls "/proc/$service/fd" | wc -l) descriptors"; }
gdbus call --address "$address" --dest org.rehearse.Simulator --object-path /org/rehearse/Simulator \
    --method org.rehearse.Simulator1.Get time >/dev/null
before=$(resources)

start=$(date +%s%N)
python3 "$root/Tests/RehearseDBusIntegrationTests/hostile_peer.py" drop-mid-advance "$address" "$work/serve.log" "$rounds"
elapsed=$(( ($(date +%s%N) - start) / 1000000000 ))
after=$(resources)
dropped=$(grep -c "bytes unread" "$work/serve.log" || true)

stop=$(date +%s%N)
kill -TERM "$service"
status=0
wait "$service" || status=$?
echo "dropped mid-Advance: $dropped of $rounds peers in $elapsed s; service before: $before; after: $after"
echo "SIGTERM to exit: $(( ($(date +%s%N) - stop) / 1000000 )) ms, status $status"
