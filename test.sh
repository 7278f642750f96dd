#!/usr/bin/env bash
# Quick start, step 2: install what is missing, build, and run every test
# (unit tests and integration tests against real servers) through ctest.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
cd build
exec ctest --output-on-failure -j2 "$@"
