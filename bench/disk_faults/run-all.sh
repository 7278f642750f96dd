#!/bin/bash
# run-all.sh: the four measurements one after another (one server at a time),
# each script's output in <server>/run.out. About 25-30 minutes on 2 busy cores.
cd "$(dirname "$(readlink -f "$0")")" || exit 1
for s in redis zk etcd mariadb; do
    echo "== $s.sh ($(date +%T))"
    bash "$s.sh" >"$s/run.out" 2>&1
    echo "   exit $? ($(date +%T)); $(tail -1 "$s/run.out")"
done
