#!/usr/bin/env bash
# Installs the Debian packages lockcheck needs (only those missing; apt-get,
# as root) and builds it into build/. Used by ./run.sh and ./test.sh.
#   scripts/setup.sh [TARGET...]   builds these CMake targets (default: all)
# ./run.sh builds only lockcheck_runtime (lockcheck and its helpers), ./test.sh
# everything. Warnings are errors (LOCKCHECK_WERROR) in CI (CI=true) or when
# LOCKCHECK_WERROR=ON is in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make pkg-config
  libc6-dev binutils  # libc.a and ld: the static clock launcher, its stub, the static test programs
  dpkg-dev file
  redis-server redis-sentinel redis-tools
  mariadb-server mariadb-client libmariadb-dev
  zookeeper default-jre-headless libzookeeper-mt-dev
  etcd-server etcd-client libcurl4-openssl-dev
  libhiredis-dev nlohmann-json3-dev libsimdjson-dev
  libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  iproute2 iptables procps util-linux
  docker.io
  openssh-client openssh-server
  libfuse3-dev fuse3
  chromium
  python3 python3-redis nodejs
  clang libclang-rt-14-dev lld
)

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

targets=("$@")
werror=OFF
if [[ ${CI:-} == true || ${LOCKCHECK_WERROR:-} == ON ]]; then werror=ON; fi
echo "== building ${targets[*]:-lockcheck and its tests} into build/"
# A unity build (eight sources of a target compiled as one) takes less than half
# the compiler time of one file at a time: the common headers (nlohmann/json,
# spdlog, the standard library) are parsed once per eight files. Configure a
# build directory of your own without it to rebuild single files while you work.
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON -DLOCKCHECK_WERROR="$werror" >/dev/null
cmake --build build -j"$(nproc)" ${targets[@]:+--target "${targets[@]}"}
