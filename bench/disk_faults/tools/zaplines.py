#!/usr/bin/env python3
"""zaplines.py LOG [MAX]: the notable lines of an etcd (zap JSON) log: every
warn/error/fatal/panic line and the info lines about the WAL, the backend and
repairs, as `level: msg (error: ..., other fields)`, verbatim field values;
plus any non-JSON line of a Go crash ("panic:", "fatal error:", "[signal ..."). Duplicates dropped."""
import json
import sys

KEEP_INFO = ("repair", "WAL", "wal", "backend", "snapshot", "restart", "recovered", "consistent", "truncat",
             "torn", "applied", "lease")
SKIP = ("serving client traffic insecurely", "simple token is not cryptographically signed",
        "starting an etcd server", "enabled backend quota", "configuring", "started to purge file",
        "opened backend db", "recovered v2 store from snapshot", "recovered v3 backend from snapshot",
        "restarting local member", "closing etcd server", "recovering lessor",
        "failed to reach the peerURL", "prober detected unhealthy status", "lost TCP streaming connection",
        "lost the TCP streaming connection", "failed to dial", "failed to publish local member to cluster",
        "peer became inactive", "dropped internal Raft message", "health check for peer", "rejected stream",
        "failed to read from", "failed to write", "request cluster ID mismatch")
EXTRA = ("error", "panic", "wal-dir", "snapshot-index", "commit-index", "consistent-index", "index", "file",
         "expected", "got", "local-member-id", "remote-peer-cluster-id", "local-member-cluster-id")

limit = int(sys.argv[2]) if len(sys.argv) > 2 else 6
seen, out = set(), []
for raw in open(sys.argv[1], errors="replace"):
    raw = raw.rstrip("\n")
    line = None
    if raw.startswith("{"):
        try:
            j = json.loads(raw)
        except ValueError:
            continue
        lvl, msg = j.get("level", ""), j.get("msg", "")
        if any(s in msg for s in SKIP):
            continue
        if lvl == "info" and not any(k in msg for k in KEEP_INFO):
            continue
        if lvl == "debug":
            continue
        extra = ", ".join("%s: %s" % (k, j[k]) for k in EXTRA if k in j)
        line = "%s: %s%s" % (lvl, msg, " (%s)" % extra if extra else "")
    elif raw.startswith(("panic:", "fatal error:", "[signal ", "unexpected fault address")):
        line = raw
    if line and line not in seen:
        seen.add(line)
        out.append(line)
print("\n".join(out[:limit]))
