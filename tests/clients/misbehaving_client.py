#!/usr/bin/env python3
"""A worker that breaks the protocol on purpose, for lockcheck's own tests.

    misbehaving_client.py MODE [AFTER]

Behaves like examples/python/redis_lock_safe.py for AFTER - 1 requests
(default AFTER 12), then misbehaves on request AFTER, by MODE:
  garbage   prints a line that is not JSON
  wrong-id  answers with another request's id
  crash     exits without answering
  hang      stops answering (and reading) until killed
  deep      answers with a value nested 100,000 arrays deep (200 KB)
  latin1    answers with an error in Latin-1 ("caf\xe9"): not UTF-8, so not JSON
  at-start  exits before answering init (nothing works at all)
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
from lockcheck_client import PROTOCOL, _answer  # noqa: E402
from redis_lock_safe import SafeRedisLock  # noqa: E402

MODE = sys.argv[1]
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 12


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def misbehave(request):
    if MODE == "garbage":
        send("this is not json")
    elif MODE == "wrong-id":
        send(json.dumps({"id": request["id"] + 1000, "type": "ok"}))
    elif MODE == "crash":
        os._exit(7)
    elif MODE == "hang":
        time.sleep(3600)
    elif MODE == "deep":
        depth = 100000
        send('{"id": %d, "type": "ok", "value": %s%s}' % (request["id"], "[" * depth, "]" * depth))
    elif MODE == "latin1":
        sys.stdout.buffer.write(b'{"id": %d, "type": "fail", "error": "caf\xe9"}\n' % request["id"])
        sys.stdout.flush()


def main():
    init = json.loads(sys.stdin.readline() or "{}")
    if MODE == "at-start":
        sys.stderr.write("misbehaving_client: exiting before init, as asked\n")
        sys.exit(3)
    client = SafeRedisLock(init)
    send(json.dumps({"id": 0, "type": "ok", "protocol": PROTOCOL, "client": "misbehaving (%s)" % MODE,
                     "supports": client.supports}))
    for served, line in enumerate(sys.stdin, start=1):
        request = json.loads(line)
        if served == AFTER:
            misbehave(request)
            continue
        send(json.dumps({"id": request["id"], **_answer(client, request)}))


main()
