#!/usr/bin/env bash
# Installs the Debian packages lockcheck needs (only those missing; apt-get,
# as root) and builds it into build/. Used by ./run.sh and ./test.sh.
#   scripts/setup.sh [TARGET...]   builds these CMake targets (default: all)
# ./run.sh builds only lockcheck_runtime (lockcheck and its helpers) and
# installs only what that build and the default scenario need (Redis, the
# libraries lockcheck links): the first verdict on a fresh machine is not kept
# waiting by MariaDB, ZooKeeper, a JRE, Docker or Chromium. ./test.sh builds
# everything, tests and benchmarks included, and installs the rest.
# Warnings are errors (LOCKCHECK_WERROR) in CI (CI=true) or when
# LOCKCHECK_WERROR=ON is in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
runtime_only=false
if [[ ${targets[*]:-} == lockcheck_runtime ]]; then runtime_only=true; fi

# What lockcheck_runtime builds with and the default scenario runs on.
packages=(
  g++ cmake make pkg-config lld
  libc6-dev binutils  # libc.a and ld: the static clock launcher, its stub, the static test programs
  redis-server redis-tools
  libmariadb-dev libzookeeper-mt-dev libcurl4-openssl-dev
  libhiredis-dev nlohmann-json3-dev libsimdjson-dev
  libcli11-dev libfmt-dev libspdlog-dev
  libfuse3-dev fuse3
  iproute2 iptables procps util-linux
)
# The other scenarios' servers, the tests, the benchmarks, the package and
# the browser, Docker, ssh and fuzzing tests.
if [[ $runtime_only == false ]]; then
  packages+=(
    dpkg-dev file
    redis-sentinel
    mariadb-server mariadb-client
    zookeeper default-jre-headless
    etcd-server etcd-client
    libgtest-dev libgmock-dev googletest libbenchmark-dev
    docker.io
    openssh-client openssh-server
    chromium
    python3 python3-redis nodejs
    clang libclang-rt-14-dev
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "lockcheck: missing Debian packages: ${missing[*]}" >&2
    echo "lockcheck: run this as root, or install them: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "== installing ${#missing[@]} Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

werror=OFF
if [[ ${CI:-} == true || ${LOCKCHECK_WERROR:-} == ON ]]; then werror=ON; fi
echo "== building ${targets[*]:-lockcheck and its tests} into build/"
# A unity build (eight sources of a target compiled as one) takes less than half
# the compiler time of one file at a time: the common headers (nlohmann/json,
# spdlog, the standard library) are parsed once per eight files. Configure a
# build directory of your own without it to rebuild single files while you work.
# Without the tests' packages the tests and benchmarks cannot be configured:
# run.sh leaves them out, test.sh puts them back in the same build directory.
with_tests=ON
if [[ $runtime_only == true ]]; then with_tests=OFF; fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON -DLOCKCHECK_WERROR="$werror" \
  -DLOCKCHECK_BUILD_TESTS="$with_tests" -DLOCKCHECK_BUILD_BENCH="$with_tests" >/dev/null
cmake --build build -j"$(nproc)" ${targets[@]:+--target "${targets[@]}"}
