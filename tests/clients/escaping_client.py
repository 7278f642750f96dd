#!/usr/bin/env python3
"""A worker that leaves a process behind on purpose, for lockcheck's own tests.

    escaping_client.py DIR [EXIT_AFTER]

Before it answers init it starts an escapee: a grandchild in a session of its
own (setsid, double fork: its parent exits at once), with SIGTERM and SIGHUP
ignored and stdin/stdout/stderr on /dev/null, that writes its PID to
DIR/escapee-<worker pid>.pid and then sleeps (at most 10 minutes). Nothing the
worker's process or process group receives reaches it. Then the worker serves
like examples/python/redis_lock_safe.py; with EXIT_AFTER it exits after that
many requests (and is replaced), leaving its escapee behind.
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
import lockcheck_client  # noqa: E402
from redis_lock_safe import SafeRedisLock  # noqa: E402

DIR = sys.argv[1]
EXIT_AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else None


def start_escapee():
    worker = os.getpid()
    if os.fork() > 0:
        os.wait()  # the intermediate child exits at once
        return
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    path = os.path.join(DIR, "escapee-%d.pid" % worker)
    with open(path + ".tmp", "w") as out:
        out.write("%d\n" % os.getpid())
    os.rename(path + ".tmp", path)
    time.sleep(600)
    os._exit(0)


class ExitingAfter(SafeRedisLock):
    """SafeRedisLock that exits after EXIT_AFTER requests."""

    served = 0

    def _count(self):
        ExitingAfter.served += 1
        if EXIT_AFTER is not None and ExitingAfter.served >= EXIT_AFTER:
            os._exit(3)

    def acquire(self, key, owner, ttl_ms):
        self._count()
        return super().acquire(key, owner, ttl_ms)

    def release(self, key, owner):
        self._count()
        return super().release(key, owner)


start_escapee()
lockcheck_client.serve(ExitingAfter)
