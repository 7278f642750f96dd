#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build lockcheck and its
# helpers (not the tests: ./test.sh builds those), and run the default
# scenario (a Redis lock whose holder is paused past its lease). Extra
# arguments go to `lockcheck run`, e.g. ./run.sh --fencing
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh lockcheck_runtime
exec build/lockcheck run scenarios/redis-holder-pause.json "$@"
