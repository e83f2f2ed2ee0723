#!/usr/bin/env bash
# Sourced by the soaks: a scratch folder removed at exit (KEEP=1 keeps it) with the jobs started,
# the release `rehearse` built, and where a `serve --no-bus --listen` service of the soak listens:
# sets here, root, work, rehearse, socket and address.
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
(cd "$root" && swift build -c release --product rehearse >/dev/null)
rehearse="$root/.build/release/rehearse"
socket="$work/peer.sock"
address="unix:path=$socket"
