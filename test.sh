#!/usr/bin/env bash
# Quick start, step 2: install what is missing, build, and run every test
# (unit tests and integration tests against real servers) through ctest.
# The docker tests need a Docker daemon: when none answers (DOCKER_HOST or
# /var/run/docker.sock), a private one is started for the tests
# (scripts/private_dockerd.sh) and stopped afterwards. The remote tests
# (runtime ssh) start sshd "hosts" of their own (tests/support/ssh_test_hosts.hpp).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
answers() { docker "$@" version --format '{{.Server.Version}}' >/dev/null 2>&1; }
if ! answers && [[ $(id -u) -eq 0 ]]; then
  private_socket=${LOCKCHECK_DOCKERD_DIR:-/tmp/lockcheck-dockerd}/docker.sock
  # A private daemon that runs already is left running: whoever started it stops it.
  if ! answers -H "unix://$private_socket"; then
    scripts/private_dockerd.sh start >/dev/null
    trap "$PWD/scripts/private_dockerd.sh stop" EXIT  # runs after the cd below
  fi
  export DOCKER_HOST=unix://$private_socket
fi
cd build
if (($# == 0)); then set -- -LE fuzz; fi
ctest --output-on-failure -j2 "$@"
