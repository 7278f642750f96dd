#!/usr/bin/env bash
# A private Docker daemon for lockcheck's docker runtime and its tests, on a
# machine where none answers (CI, a fresh Debian 12 as root). Debian's
# docker.io (scripts/setup.sh installs it) provides dockerd.
#
#   scripts/private_dockerd.sh start   starts it (unless one answers already)
#                                      and prints DOCKER_HOST=unix://DIR/docker.sock
#   scripts/private_dockerd.sh stop    stops the one this script started and
#                                      removes DIR (its images and containers too)
#
# DIR is $LOCKCHECK_DOCKERD_DIR, default /tmp/lockcheck-dockerd. The daemon
# keeps everything under DIR (--data-root DIR/root, --exec-root DIR/exec,
# pidfile DIR/pid), touches no iptables rules (--iptables=false) and makes no
# default bridge (--bridge=none): lockcheck creates a network per run. Use it
# with `export DOCKER_HOST=unix://DIR/docker.sock`. Run as root.
#
# With LOCKCHECK_ENGINE=podman the daemon is Podman's Docker-compatible API
# service instead (`podman system service`, Debian's podman, not installed by
# setup.sh), its storage under DIR (--root DIR/root, --runroot DIR/exec),
# DIR defaulting to /tmp/lockcheck-podman; the same `start` and `stop`.
set -euo pipefail

engine=${LOCKCHECK_ENGINE:-docker}
case $engine in
  docker) dir=${LOCKCHECK_DOCKERD_DIR:-/tmp/lockcheck-dockerd} ;;
  podman) dir=${LOCKCHECK_DOCKERD_DIR:-/tmp/lockcheck-podman} ;;
  *) echo "private_dockerd: LOCKCHECK_ENGINE must be docker or podman, not $engine" >&2; exit 2 ;;
esac
socket=$dir/docker.sock

answers() {
  if [[ $engine == podman ]]; then
    podman --remote --url "unix://$socket" version --format '{{.Server.Version}}' >/dev/null 2>&1
  else
    docker -H "unix://$socket" version --format '{{.Server.Version}}' >/dev/null 2>&1
  fi
}

launch() {
  if [[ $engine == podman ]]; then
    command -v podman >/dev/null || { echo "private_dockerd: podman is missing (apt-get install podman)" >&2; exit 1; }
    podman --root "$dir/root" --runroot "$dir/exec" system service --time=0 "unix://$socket" >"$dir/dockerd.log" 2>&1 &
    echo $! >"$dir/pid"
  else
    command -v dockerd >/dev/null || { echo "private_dockerd: dockerd is missing (apt-get install docker.io)" >&2; exit 1; }
    dockerd --data-root "$dir/root" --exec-root "$dir/exec" -H "unix://$socket" --pidfile "$dir/pid" \
      --iptables=false --bridge=none >"$dir/dockerd.log" 2>&1 &
  fi
}

start() {
  if answers; then
    echo "DOCKER_HOST=unix://$socket"
    return
  fi
  mkdir -p "$dir/root" "$dir/exec"
  launch
  for _ in $(seq 1 150); do
    if answers; then
      echo "DOCKER_HOST=unix://$socket"
      return
    fi
    sleep 0.2
  done
  echo "private_dockerd: $engine did not answer at unix://$socket within 30 s; its log says: $(tail -n 1 "$dir/dockerd.log")" >&2
  stop
  exit 1
}

stop() {
  if [[ -f $dir/pid ]]; then
    local pid
    pid=$(cat "$dir/pid")
    if kill -TERM "$pid" 2>/dev/null; then
      for _ in $(seq 1 150); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  # What the daemon left mounted under DIR (overlay layers, netns files), deepest first.
  awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mount; do
    umount -l "$mount" 2>/dev/null || true
  done
  rm -rf "$dir"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
