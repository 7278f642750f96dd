#!/usr/bin/env python3
"""The same lock with a common bug: release by plain DEL, without checking the owner.

A holder paused past its lease wakes up and deletes the lock a newer holder has
taken, so a third client gets it while the second still holds it: an overlap
within the second holder's lease, which lockcheck reports.
Run it under lockcheck:  lockcheck run examples/python/redis-python-unsafe.json
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lockcheck_client import ok, serve  # noqa: E402
from redis_lock_safe import SafeRedisLock  # noqa: E402


class UnsafeRedisLock(SafeRedisLock):
    name = "python redis-py SET NX PX, release by plain DEL (unsafe)"

    def release(self, key, owner):
        _, error = self.call("return redis.call('DEL', KEYS[1])", [key], [])
        return error or ok()


if __name__ == "__main__":
    serve(UnsafeRedisLock)
