#!/usr/bin/env bash
# Sessions in parallel: one client driving a session of its own against two clients driving one
# each at the same time, on `rehearse serve --no-bus --listen` (release), with the C client
# session_client.c. Two workloads: `rebuild` (Reset: the simulation built again, compute-bound,
# no signals) and `form` (the login form lifted and settled by taps and Advance: about 76 Event
# signals a cycle, which the connection's one thread sends). Rounds alternate one and two
# clients; prints each round, then medians and the ratio two / one, the latter also as a line
# `ratio: two sessions / one, WORKLOAD (sessions.sh): VALUE` that Benchmarks/ratios.py reads.
#   Usage: Benchmarks/dbus/sessions.sh [ROUNDS]   (after scripts/install-deps; default 5)
set -euo pipefail
rounds="${1:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

gcc -O2 -Wall -o "$work/session_client" "$here/session_client.c" $(pkg-config --cflags --libs dbus-1)
(cd "$root" && swift build -c release --product rehearse >/dev/null)
address="unix:path=$work/peer.sock"
"$root/.build/release/rehearse" serve --no-bus --mode manual --listen "$address" >/dev/null 2>&1 &
until [ -S "$work/peer.sock" ]; do sleep 0.05; done

rate() { sed 's/.*"cycles_per_second": \([0-9.]*\).*/\1/'; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for work_kind in rebuild form; do
    count=$([ "$work_kind" = rebuild ] && echo 3000 || echo 1500)
    : >"$work/one" && : >"$work/two"
    for round in $(seq 1 "$rounds"); do
        one=$("$work/session_client" "$address" "$work_kind" "$count" | rate)
        "$work/session_client" "$address" "$work_kind" "$count" | rate >"$work/a" &
        other=$!
        "$work/session_client" "$address" "$work_kind" "$count" | rate >"$work/b"
        wait "$other"
        two=$(awk '{s += $1} END {print s}' "$work/a" "$work/b")
        echo "$work_kind round $round: one session $one cycles/s, two sessions $two cycles/s in all"
        echo "$one" >>"$work/one"
        echo "$two" >>"$work/two"
    done
    m1=$(median <"$work/one")
    m2=$(median <"$work/two")
    ratio=$(awk "BEGIN {printf \"%.2f\", $m2 / $m1}")
    echo "$work_kind medians: one $m1, two $m2 cycles/s: ${ratio}x"
    echo "ratio: two sessions / one, $work_kind (sessions.sh): $ratio"
done
