#!/usr/bin/env bash
# make load: the real `docent serve` (embedded demo knowledge base, offline
# extractive writer, a throwaway data directory and token) under docent-load
# for LOAD_DURATION per attack; prints latency percentiles per endpoint and
# the server's RSS before and after (LOAD_WARMUP: an unmeasured attack
# first).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/docent}
LOAD_BIN=${LOAD_BIN:-bin/docent-load}
LOAD_DURATION=${LOAD_DURATION:-10s}
LOAD_RATE=${LOAD_RATE:-200}
LOAD_ASK_RATE=${LOAD_ASK_RATE:-20}

tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
# Offline and private: no database, no model provider, nothing of the
# caller's data directory.
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
unset DATABASE_URL DOCENT_DB OPENAI_API_KEY ANTHROPIC_API_KEY
export DOCENT_PROVIDER=extractive

DOCENT_LOAD_TOKEN=$("$BIN" tokens create --workspace load --user load --name make-load 2>/dev/null)
export DOCENT_LOAD_TOKEN
# The rate limit is the server's defence, not what is measured here.
"$BIN" serve --addr 127.0.0.1:0 --rate 1000000 --burst 1000000 2>"$tmp/serve.log" &
pid=$!
addr=
for _ in $(seq 1 300); do
  addr=$(sed -n 's/^docent: serving //p' "$tmp/serve.log")
  [ -n "$addr" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$addr" ] || { echo "load: docent serve did not start" >&2; cat "$tmp/serve.log" >&2; exit 1; }
# The server's resident memory, in MB ("" where /proc is not there).
rss() { [ -r "/proc/$pid/status" ] && awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status"; }
# A warm-up, unmeasured, first when LOAD_WARMUP is set: a server holding
# a large index fills its heap to the garbage collector's goal (twice the
# live heap) over its first collections under load, which is growth of
# the heap to its size, not a leak; the RSS growth printed below is then
# that of the steady state.
if [ -n "${LOAD_WARMUP:-}" ]; then
  echo "load: warming up for $LOAD_WARMUP"
  "$LOAD_BIN" --url "$addr" --duration "$LOAD_WARMUP" --rate "$LOAD_RATE" --ask-rate "$LOAD_ASK_RATE" ${LOAD_ARGS:-} >/dev/null
fi
echo "load: $addr, $LOAD_DURATION, /api/retrieve at $LOAD_RATE/s and /api/ask at $LOAD_ASK_RATE/s at once"
before=$(rss || true)
"$LOAD_BIN" --url "$addr" --duration "$LOAD_DURATION" --rate "$LOAD_RATE" --ask-rate "$LOAD_ASK_RATE" ${LOAD_ARGS:-}
after=$(rss || true)
if [ -n "$before" ] && [ -n "$after" ]; then
  echo "server RSS: $before MB at the start, $after MB at the end ($(awk -v a="$before" -v b="$after" 'BEGIN { printf "%+.1f%%", 100 * (b - a) / a }'))"
fi
