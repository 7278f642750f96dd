#!/usr/bin/env bash
# The cost of the lose-unsynced filesystem (docs/benchmarks.md): Redis SET
# throughput with appendonly yes, appendfsync always, on a plain directory and
# on the filesystem mounted over one, in alternating rounds; prints each
# round and the medians. One redis-server on 127.0.0.1, a bounded
# redis-benchmark (-n REQUESTS -c 5). Needs root and /dev/fuse. The data
# lives under $LOCKCHECK_BENCH_DIR (default /tmp): a disk filesystem measures
# what a run pays; tmpfs (/dev/shm), where fdatasync costs nothing, measures
# the FUSE round trips alone.
#
# usage: bench/unsyncedfs_redis.sh [BUILD_DIR] [ROUNDS] [REQUESTS] [DAEMON OPTION...]
#   e.g. LOCKCHECK_BENCH_DIR=/dev/shm bench/unsyncedfs_redis.sh build 5 20000 --threads 2
set -euo pipefail

build=${1:-build}
rounds=${2:-5}
requests=${3:-20000}
shift $(( $# < 3 ? $# : 3 ))
daemon_options=("$@")
daemon=$(realpath "$build/lockcheck-unsyncedfs")
port=16379
work=$(mktemp -d "${LOCKCHECK_BENCH_DIR:-/tmp}/lockcheck-unsyncedfs-bench-XXXXXX")
redis_pid=""
fs_pid=""

cleanup() {
  if [[ -n $redis_pid ]]; then kill -9 "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  if [[ -n $fs_pid ]]; then  # EOF on its stdin: the daemon unmounts and exits
    eval "exec ${fs_in}>&-"
    wait "$fs_pid" 2>/dev/null || true
  fi
  mountpoint -q "$work/mnt" 2>/dev/null && umount -l "$work/mnt"
  rm -rf "$work"
}
trap cleanup EXIT

[[ -x $daemon ]] || { echo "no $daemon: build the lockcheck-unsyncedfs target first" >&2; exit 1; }
if redis-cli -p "$port" ping >/dev/null 2>&1; then echo "port $port is in use" >&2; exit 1; fi

# Requests per second of SET against a fresh redis-server whose dir is $1.
measure() {
  local dir=$1
  rm -rf "${dir:?}"/*
  redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --appendonly yes --appendfsync always \
    --save "" --daemonize no --logfile "$work/redis.log" &
  redis_pid=$!
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
  redis-benchmark -h 127.0.0.1 -p "$port" -t set -n "$requests" -c 5 -r 100000 --csv |
    awk -F'"' '$2 == "SET" { print $4 }'
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait "$redis_pid" 2>/dev/null || true
  redis_pid=""
}

mkdir -p "$work/plain" "$work/backing" "$work/mnt"
coproc FS { exec "$daemon" --backing "$work/backing" --mountpoint "$work/mnt" "${daemon_options[@]}" 2>"$work/daemon.log"; }
fs_pid=$FS_PID
fs_in=${FS[1]}
read -r -t 10 ready <&"${FS[0]}" || true
[[ ${ready:-} == ready ]] || { echo "the filesystem did not mount: $(cat "$work/daemon.log")" >&2; exit 1; }

plain=()
mounted=()
for round in $(seq "$rounds"); do
  p=$(measure "$work/plain")
  m=$(measure "$work/mnt")
  plain+=("$p")
  mounted+=("$m")
  printf 'round %d: plain %s SET/s, unsyncedfs %s SET/s (%.0f%%)\n' "$round" "$p" "$m" "$(echo "100 * $m / $p" | bc -l)"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
p=$(median "${plain[@]}")
m=$(median "${mounted[@]}")
printf 'median: plain %s SET/s, unsyncedfs %s SET/s: %.0f%% of plain\n' "$p" "$m" "$(echo "100 * $m / $p" | bc -l)"
