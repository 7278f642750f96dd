#!/usr/bin/env bash
# Harness benchmark: lock cycles per second that lockcheck drives against one
# Redis with no nemesis, with 1, 5 and 20 workers, next to the same client in
# a bare loop in one process with 1, 5 and 20 clients (threads), all in one
# run, so every row sees the same machine.
#   bench/lock_cycles.sh [SECONDS]     (after ./test.sh or scripts/setup.sh built build/)
#   LOCKCHECK=/path/to/lockcheck BARE_LOCK_LOOP=/path/to/bare_lock_loop bench/lock_cycles.sh   (other builds)
# Every loop is bounded by SECONDS (default 10). Several workers draw their
# keys from 1000, so that they seldom find a lock busy (a busy acquire backs
# off 5-30 ms, which would measure contention, not the harness); each bare
# client has a key of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
lockcheck=${LOCKCHECK:-build/lockcheck}
bare_lock_loop=${BARE_LOCK_LOOP:-build/bench/bare_lock_loop}
work=$(mktemp -d /tmp/lockcheck-bench.XXXXXX)
redis_pid=""
cleanup() {
  [[ -n $redis_pid ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

harness() {  # workers keys
  cat > "$work/spec.json" <<SPEC
{"name": "bench-cycles", "workers": $1, "keys": $2, "hold_ms": [0, 0], "think_ms": [0, 0],
 "nemesis": [], "time_limit_s": $seconds, "network": "loopback"}
SPEC
  "$lockcheck" run "$work/spec.json" --store "$work/store" >/dev/null 2>&1 || true
  python3 - "$work/store/latest/results.json" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sessions = r["checkers"]["mutual-exclusion"]["stats"]["sessions"]
secs = r["run"]["seconds"]
print(f"harness  workers={sys.argv[2]} keys={sys.argv[3]}: {sessions} cycles in {secs:.1f} s = {sessions/secs:.0f} cycles/s "
      f"({r['run']['ops']} ops = {r['run']['ops']/secs:.0f} ops/s, valid={r['valid']})")
PY
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lock cycles (acquire, read, write, release through worker processes; hold 0 ms, think 0 ms)"
harness 1 1
harness 5 1000
harness 20 1000

echo "bare loop (acquire + release with the same client, one thread per client, no harness)"
mkdir -p "$work/redis"
redis-server --bind 127.77.251.1 --port 6379 --save '' --appendonly no --daemonize no --dir "$work/redis" \
  >"$work/redis/log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -h 127.77.251.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
for clients in 1 5 20; do
  echo -n "bare     clients=$clients: "
  "$bare_lock_loop" 127.77.251.1:6379 "$seconds" "$clients"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
