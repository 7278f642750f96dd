#!/usr/bin/env bash
# The Debian package (cmake/packaging.cmake, docs/ci.md): builds it with
# `cpack -G DEB` in BUILD_DIR, extracts it with `dpkg-deb -x` into a scratch
# directory (nothing is installed) and checks its layout, its control fields,
# and that the extracted lockcheck finds its scenarios and helpers there and
# runs `suite quick` from there (as root, with the servers of this host, which
# the package's Depends name).
#   tests/package/package_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "package_test: $*" >&2; exit 1; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
deb=$build/lockcheck_${version}_${arch}.deb
rm -f "$deb"
(cd "$build" && cpack -G DEB -B "$build" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log" >&2; fail "cpack failed"; }
[[ -f $deb ]] || fail "cpack made no $(basename "$deb")"

root=$scratch/root
dpkg-deb -x "$deb" "$root"
for path in usr/bin/lockcheck usr/lib/lockcheck/lockcheck-unsyncedfs usr/lib/lockcheck/libclockshift.so \
            usr/lib/lockcheck/lockcheck-clock-launch \
            usr/share/lockcheck/scenarios/redis-holder-pause.json usr/share/lockcheck/docs/usage.md \
            usr/share/lockcheck/README.md; do
  [[ -e $root/$path ]] || fail "the package has no /$path"
done
[[ -x $root/usr/bin/lockcheck && -x $root/usr/lib/lockcheck/lockcheck-unsyncedfs &&
   -x $root/usr/lib/lockcheck/lockcheck-clock-launch ]] || fail "binaries not executable"
depends=$(dpkg-deb -f "$deb" Depends)
for needed in redis-server mariadb-server zookeeper etcd-server iproute2 libhiredis; do
  [[ $depends == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done

# From a directory without ./scenarios, the extracted binary must read the
# package's scenarios (not the source tree's, which it knows as a fallback).
cd "$scratch"
listing=$("$root/usr/bin/lockcheck" list)
expected_dir=$root/usr/share/lockcheck/scenarios
read_from=$(grep '^scenarios (' <<<"$listing" || true)
[[ $read_from == "scenarios ($expected_dir):" ]] || fail "lockcheck list read '$read_from', not $expected_dir"
scenarios=$(sed -n '/^scenarios (/,$p' <<<"$listing" | grep -c '^  [a-z]')
grep -q "^  redis-holder-pause " <<<"$listing" || fail "lockcheck list shows no redis-holder-pause"
echo "package_test: $(basename "$deb") ok: $scenarios scenarios listed from $expected_dir"

# A suite from the extracted tree: its scenarios, its helpers, its worker.
if [[ $(id -u) -eq 0 ]]; then
  "$root/usr/bin/lockcheck" suite quick --store "$scratch/store" >"$scratch/suite.txt" 2>&1 \
    || { cat "$scratch/suite.txt" >&2; fail "suite quick from the extracted package failed"; }
  summary=$(grep -E '^[0-9]+ scenarios: ' "$scratch/suite.txt" || true)
  [[ $summary == *" 0 did not"* ]] || { cat "$scratch/suite.txt" >&2; fail "suite quick: '$summary'"; }
  grep -q "^== \[1/.*($root/usr/share/lockcheck/scenarios/" "$scratch/suite.txt" || fail "the suite did not read the package's scenarios"
  echo "package_test: suite quick from the extracted package: ${summary%% |*}"
else
  echo "package_test: not root, suite quick from the package skipped"
fi
