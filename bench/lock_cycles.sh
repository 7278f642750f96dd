#!/usr/bin/env bash
# Harness benchmark: lock cycles per second that lockcheck drives against one
# Redis with no nemesis, next to the same client in a bare in-process loop.
#   bench/lock_cycles.sh [SECONDS]     (after ./test.sh or scripts/setup.sh built build/)
# Every loop is bounded by SECONDS (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
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
  build/lockcheck run "$work/spec.json" --store "$work/store" >/dev/null 2>&1 || true
  python3 - "$work/store/latest/results.json" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sessions = r["checkers"]["mutual-exclusion"]["stats"]["sessions"]
secs = r["run"]["seconds"]
print(f"harness  workers={sys.argv[2]} keys={sys.argv[3]}: {sessions} cycles in {secs:.1f} s = {sessions/secs:.0f} cycles/s "
      f"({r['run']['ops']} ops, valid={r['valid']})")
PY
}

echo "lock cycles (acquire, read, write, release through worker processes; hold 0 ms, think 0 ms)"
harness 1 1
harness 5 5

echo "bare loop (acquire + release with the same client in one process, no harness)"
mkdir -p "$work/redis"
redis-server --bind 127.77.251.1 --port 6379 --save '' --appendonly no --daemonize no --dir "$work/redis" \
  >"$work/redis/log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -h 127.77.251.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
echo -n "bare     1 client: "
build/bench/bare_lock_loop 127.77.251.1:6379 "$seconds"
