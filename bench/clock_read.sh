#!/bin/sh
# The clock library's cost per reading (docs/benchmarks.md, "Clock library"):
# clock_read_bench without the library, then under it with a state that
# moves nothing, a wall-clock jump, and a monotonic drift (two system calls);
# then clock_read_static, a statically linked program, bare and under the
# clock launcher with the same states.
# Usage: bench/clock_read.sh BUILD_DIR
set -eu
build=${1:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "== without the library"
"$build/bench/clock_read_bench" --benchmark_min_time=0.2
echo "== static, without the launcher"
"$build/bench/clock_read_static"
for state in "0 1000000000 nothing moves" "2000000000 1000000000 wall clock +2 s" "0 1500000000 monotonic at 1.5x"; do
    set -- $state
    "$build/bench/clock_state_writer" "$1" "$2" >"$dir/state"
    shift 2
    echo "== under the library: $*"
    LD_PRELOAD="$build/libclockshift.so" LOCKCHECK_CLOCK_OFFSET_FILE="$dir/state" \
        "$build/bench/clock_read_bench" --benchmark_min_time=0.2
    echo "== static, under the launcher: $*"
    LOCKCHECK_CLOCK_OFFSET_FILE="$dir/state" "$build/lockcheck-clock-launch" -- "$build/bench/clock_read_static"
done
