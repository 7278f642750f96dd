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
# Under every row, the CPU each part used over SECONDS-3 s in the middle of
# the row (from 1 s after its first op), in cores (CPU seconds per second,
# from /proc/PID/stat): the controller, the worker processes (with the fork
# server) and redis-server for the harness; the loop's process and
# redis-server for the bare loop. redis-server near 1 core would make it the
# limit (it serves commands on one thread); the first line says how many
# cores the machine has.
#   REDIS_CPU=0.15 bench/lock_cycles.sh   (root) caps every row's redis-server at
# that many cores (bench/cpu_cap.sh), so that redis, not the harness, is the
# scarcer resource even on a small machine: a row whose redis-server uses its
# whole cap is limited by redis.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
(( seconds >= 4 )) || { echo "lock_cycles.sh: SECONDS must be at least 4 (the CPU is read over SECONDS-3 s mid-run)" >&2; exit 2; }
lockcheck=${LOCKCHECK:-build/lockcheck}
bare_lock_loop=${BARE_LOCK_LOOP:-build/bench/bare_lock_loop}
redis_cpu=${REDIS_CPU:-}
source bench/cpu_cap.sh
work=$(mktemp -d /tmp/lockcheck-bench.XXXXXX)
redis_pid=""
cleanup() {
  [[ -n $redis_pid ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
  cpu_cap_remove
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
if [[ -n $redis_cpu ]]; then cpu_cap_create "$redis_cpu" || exit 2; fi

cap_run_redis() {  # RUN_PID: puts the run's redis-server (a child of the controller) under the cap
  local redis waited
  for ((waited = 0; waited < 300; waited++)); do
    redis=$(pgrep -P "$1" -x redis-server) && break
    kill -0 "$1" 2>/dev/null || return 0  # the run ended (it failed); its row says so
    sleep 0.1
  done
  [[ -n $redis ]] || { echo "lock_cycles.sh: the run's redis-server did not appear within 30 s; its row is not capped" >&2; return 0; }
  cpu_cap_add "$redis"
}

ticks_per_second=$(getconf CLK_TCK)

snapshot() {  # ROOT ROOT_ROLE [REDIS_PID]: "pid role ticks" for ROOT, its children and REDIS_PID
  local root=$1 root_role=$2 redis=${3:-} pid files=()
  for pid in "$root" $(pgrep -P "$root") $redis; do files+=("/proc/$pid/stat"); done
  # one awk for all (quick, so both snapshots see the same processes); utime +
  # stime are fields 14 and 15, the 12th and 13th after the ")" that ends comm
  awk -v root="$root" -v root_role="$root_role" '{
      comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\)[^)]*$/, "", comm)
      rest = $0; sub(/^.*\) /, "", rest); split(rest, field, " ")
      role = ($1 == root) ? root_role : (comm == "redis-server" ? "redis-server" : "workers")
      print $1, role, field[12] + field[13] }' "${files[@]}" 2>/dev/null || true
}

cpu_window() {  # READY_FILE ROOT ROOT_ROLE [REDIS_PID]: each role's CPU over SECONDS-3 s, in cores,
  # from 1 s after READY_FILE is non-empty (a run's first op; "-": at once)
  local ready=$1 waited start end first second
  shift
  if [[ $ready != - ]]; then
    for ((waited = 0; waited < 300; waited++)); do [[ -s $ready ]] && break; sleep 0.1; done
  fi
  sleep 1
  start=$EPOCHREALTIME; first=$(snapshot "$@")
  sleep $((seconds - 3))
  end=$EPOCHREALTIME; second=$(snapshot "$@")
  # a process counts when it is in both snapshots
  printf '%s\n' "$first" "--" "$second" | awk -v tps="$ticks_per_second" -v w="$(echo "$end - $start" | bc)" '
    $1 == "--" { later = 1; next }
    !later { before[$1] = $3; next }
    $1 in before { cpu[$2] += ($3 - before[$1]) / tps }
    END { line = sprintf("  cpu over %.1f s mid-run, in cores:", w)
          split("controller workers bare_lock_loop redis-server", roles, " ")
          for (i = 1; i <= 4; i++) if (roles[i] in cpu) line = line sprintf(" %s %.2f", roles[i], cpu[roles[i]] / w)
          print line }'
}

harness() {  # workers keys
  cat > "$work/spec.json" <<SPEC
{"name": "bench-cycles", "workers": $1, "keys": $2, "hold_ms": [0, 0], "think_ms": [0, 0],
 "nemesis": [], "time_limit_s": $seconds, "network": "loopback"}
SPEC
  rm -rf "$work/store"
  "$lockcheck" run "$work/spec.json" --store "$work/store" >/dev/null 2>&1 &
  local run_pid=$! cpu_pid
  [[ -z $redis_cpu ]] || cap_run_redis "$run_pid"
  cpu_window "$work/store/latest/history.jsonl" "$run_pid" controller >"$work/cpu" &
  cpu_pid=$!
  wait "$run_pid" || true
  wait "$cpu_pid" || true
  python3 - "$work/store/latest/results.json" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sessions = r["checkers"]["mutual-exclusion"]["stats"]["sessions"]
secs = r["run"]["seconds"]
print(f"harness  workers={sys.argv[2]} keys={sys.argv[3]}: {sessions} cycles in {secs:.1f} s = {sessions/secs:.0f} cycles/s "
      f"({r['run']['ops']} ops = {r['run']['ops']/secs:.0f} ops/s, valid={r['valid']})")
PY
  cat "$work/cpu"
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
[[ -z $redis_cpu ]] || echo "redis-server capped at $redis_cpu cores in every row ($cpu_cap_kind, a quota every ${cpu_cap_period_us} us)"
echo "lock cycles (acquire, read, write, release through worker processes; hold 0 ms, think 0 ms)"
harness 1 1
harness 5 1000
harness 20 1000

echo "bare loop (acquire + release with the same client, one thread per client, no harness)"
mkdir -p "$work/redis"
redis-server --bind 127.77.251.1 --port 6379 --save '' --appendonly no --daemonize no --dir "$work/redis" \
  >"$work/redis/log" 2>&1 &
redis_pid=$!
[[ -z $redis_cpu ]] || cpu_cap_add "$redis_pid"
for _ in $(seq 50); do redis-cli -h 127.77.251.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
for clients in 1 5 20; do
  echo -n "bare     clients=$clients: "
  "$bare_lock_loop" 127.77.251.1:6379 "$seconds" "$clients" &
  loop_pid=$!
  cpu_window - "$loop_pid" bare_lock_loop "$redis_pid" >"$work/cpu" &
  cpu_pid=$!
  wait "$loop_pid"
  wait "$cpu_pid" || true
  cat "$work/cpu"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
