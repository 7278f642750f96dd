#!/usr/bin/env bash
# Harness benchmark: how long N workers (default 200) take to answer init,
# from the first worker's spawn to the last one's hello, with the built-in
# worker on one Redis (redis-single, no nemesis, a 1 s workload).
#   bench/worker_startup.sh [WORKERS] [REPEATS]   (after ./test.sh or scripts/setup.sh built build/)
#   LOCKCHECK=/path/to/lockcheck bench/worker_startup.sh 200   (another build, e.g. an older one)
# The time is read off lockcheck.log: from "topology ... ready" (the workers
# are spawned right after it) to the "client:" line (written once every
# worker has answered init), so builds older than parallel start-up are
# measured the same way. Each run is bounded (1 s of workload, 10 s per
# worker's init at most).
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-200}
repeats=${2:-3}
lockcheck=${LOCKCHECK:-build/lockcheck}
work=$(mktemp -d /tmp/lockcheck-bench-startup.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

cat > "$work/spec.json" <<SPEC
{"name": "bench-worker-startup", "workers": $workers, "nemesis": [], "time_limit_s": 1}
SPEC
for i in $(seq 1 "$repeats"); do
  "$lockcheck" run "$work/spec.json" --store "$work/store" >"$work/out" 2>&1 || true
  python3 - "$work/store/latest/lockcheck.log" "$workers" <<'PY'
import datetime, re, sys
ready = answered = None
for line in open(sys.argv[1]):
    stamp = re.match(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\]", line)
    if not stamp:
        continue
    t = datetime.datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S.%f")
    if "topology" in line and "ready" in line and ready is None:
        ready = t
    if "] client:" in line and answered is None:
        answered = t
if ready is None or answered is None:
    sys.exit(f"no worker start-up in {sys.argv[1]} (did the run fail? see it)")
print(f"{sys.argv[2]} workers answered init in {(answered - ready).total_seconds():.3f} s")
PY
done
