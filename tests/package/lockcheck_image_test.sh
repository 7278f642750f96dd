#!/usr/bin/env bash
# The image of lockcheck itself (clusters/runtimes/docker_lockcheck_image.hpp,
# docs/ci.md): `lockcheck images --rebuild` builds lockcheck/lockcheck:<version>
# from BUILD_DIR's lockcheck, offline, and `docker run --privileged` of it runs
# `suite quick` with the servers inside the container, its store on a bind
# mount. Needs a Docker daemon (DOCKER_HOST, or the private one ./test.sh
# starts) and its CLI; removes the image again when done.
#   tests/package/lockcheck_image_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?build dir}" && pwd)
scratch=$(mktemp -d)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
image=lockcheck/lockcheck:$version
cleanup() {
  docker rmi -f "$image" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
fail() { echo "lockcheck_image_test: $*" >&2; exit 1; }

docker version --format '{{.Server.Version}}' >/dev/null 2>&1 || fail "no Docker daemon: run ./test.sh, or scripts/private_dockerd.sh start"
start=$SECONDS
"$build/lockcheck" images --rebuild >"$scratch/images.txt" 2>&1 || { cat "$scratch/images.txt" >&2; fail "lockcheck images failed"; }
grep -qx "$image (built now)" "$scratch/images.txt" || { cat "$scratch/images.txt" >&2; fail "lockcheck images did not list $image as built now"; }
built_in=$((SECONDS - start))
size=$(docker image inspect --format '{{.Size}}' "$image")

# --privileged, as docs/ci.md says. Where the daemon cannot grant it because
# this machine is itself a container whose capability bounding set lacks one
# (runc: "unable to apply caps"), the smaller set docs/ci.md names instead.
privileges=(--privileged)
if ! docker run --rm --privileged --network none --entrypoint /bin/true "$image" >"$scratch/probe.txt" 2>&1; then
  grep -q "apply caps" "$scratch/probe.txt" || { cat "$scratch/probe.txt" >&2; fail "docker run --privileged failed"; }
  privileges=(--cap-add SYS_ADMIN --cap-add NET_ADMIN --device /dev/fuse --security-opt apparmor=unconfined)
fi

# --network none: the runs need nothing but the container's loopback and the
# namespaces they make themselves (the private dockerd has no default bridge).
mkdir "$scratch/store"
start=$SECONDS
docker run --rm "${privileges[@]}" --network none -v "$scratch/store:/lockcheck/store" "$image" suite quick \
  >"$scratch/suite.txt" 2>&1 || { cat "$scratch/suite.txt" >&2; fail "suite quick in the container failed"; }
[[ -f $scratch/store/suites/latest/junit.xml ]] || { cat "$scratch/suite.txt" >&2; fail "no junit.xml in the mounted store"; }
grep -q 'failures="0"' "$scratch/store/suites/latest/junit.xml" || fail "junit.xml has failures"
echo "lockcheck_image_test: $image built in ${built_in} s ($((size / 1000000)) MB); suite quick in it (${privileges[*]}) passed in $((SECONDS - start)) s"
