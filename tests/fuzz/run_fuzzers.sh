#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) in BUILD_DIR
# and runs each for SECONDS on a scratch copy of its seed corpus.
#   tests/fuzz/run_fuzzers.sh SECONDS BUILD_DIR [WERROR]
# WERROR (ON|OFF, default OFF) is LOCKCHECK_WERROR for the fuzz build: the
# ctest fuzz_smoke passes its own build's setting, so CI fails on a warning
# clang finds there too.
# The seed is fixed (FUZZ_SEED, default 1) so a CI run is repeatable; set
# FUZZ_SEED=0 for a fresh random seed on longer local runs.
# Exits non-zero when a target crashes, leaks or trips a sanitizer; the
# reproducer is left in BUILD_DIR/findings/<target>/.
set -euo pipefail
seconds=${1:?seconds}
seed=${FUZZ_SEED:-1}
build=${2:?build dir}
werror=${3:-OFF}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
# -O1 without debug info, as a unity build: sanitizers still name file and line, and the build is much faster.
cmake -S "$source_dir" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Fuzz -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DCMAKE_UNITY_BUILD=ON \
  -DLOCKCHECK_FUZZ=ON -DLOCKCHECK_BUILD_TESTS=OFF -DLOCKCHECK_BUILD_BENCH=OFF -DLOCKCHECK_WERROR="$werror" >/dev/null
# Only the compiler's complaints reach the terminal (a failed build shows why).
cmake --build "$build" -j"$(nproc)" --target fuzz_history fuzz_spec fuzz_protocol 2>&1 | { grep -E "warning:|error:" || true; }
status=0
for target in history spec protocol; do
  corpus=$(mktemp -d)
  cp "$source_dir/tests/fuzz/corpus/$target"/* "$corpus"/
  findings="$build/findings/$target"
  mkdir -p "$findings"
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -seed="$seed" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" >"$findings/log.txt" 2>&1; then
    echo "fuzz_$target: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$findings/log.txt" | grep -o '[0-9]*$') runs in ${seconds}s, no finding"
  else
    echo "fuzz_$target: FOUND A PROBLEM (see $findings/log.txt):"
    grep -m5 -E "ERROR|SUMMARY|Test unit written" "$findings/log.txt" || tail -5 "$findings/log.txt"
    status=1
  fi
  rm -rf "$corpus"
done
exit $status
