#!/usr/bin/env python3
"""A correct single-instance Redis lock, as the Redis docs describe it.

acquire: SET key owner NX PX ttl (and, in the same script, INCR key:fence for a fencing token)
release: compare-and-delete, so a client never deletes a lock someone else holds now.
Run it under lockcheck:  lockcheck run examples/python/redis-python-safe.json
"""
import os
import sys
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lockcheck_client import fail, info, login, ok, serve  # noqa: E402

ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class SafeRedisLock:
    name = "python redis-py SET NX PX, compare-and-delete release"
    supports = ["fencing"]

    def __init__(self, init):
        host, port = init["nodes"][0].rsplit(":", 1)
        timeout = init.get("server_timeout_ms", 1000) / 1000.0
        user, password = login(init)  # the run's password: its servers refuse clients without it
        self.redis = redis.Redis(host=host, port=int(port), username=user, password=password,
                                 socket_timeout=timeout, socket_connect_timeout=timeout)

    def call(self, script, keys, args):
        """Runs a script; returns (result, None) or (None, a fail/info reply)."""
        try:
            return self.redis.eval(script, len(keys), *keys, *args), None
        except redis.exceptions.TimeoutError as e:
            return None, info("timeout: %s" % e)
        except redis.exceptions.ConnectionError as e:
            # A refused connection never sent the command; a broken one may have.
            refused = "refused" in str(e).lower() or "connecting" in str(e).lower()
            return None, fail("not executed: %s" % e) if refused else info(str(e))
        except redis.exceptions.ResponseError as e:
            return None, fail("redis: %s" % e)

    def acquire(self, key, owner, ttl_ms):
        started = time.monotonic()
        token, error = self.call(ACQUIRE, [key, key + ":fence"], [owner, ttl_ms])
        if error:
            return error
        if token is None:
            return fail("held")
        # The lease began no earlier than the request: what is left of it now.
        valid_ms = ttl_ms - (time.monotonic() - started) * 1000
        if valid_ms <= 0:  # the grant came too late to use: give it back rather than act on it
            self.call(RELEASE, [key], [owner])
            return fail("validity expired while acquiring")
        return ok(int(token), valid_ms)

    def release(self, key, owner):
        deleted, error = self.call(RELEASE, [key], [owner])
        if error:
            return error
        return ok() if deleted == 1 else fail("not-owner")


if __name__ == "__main__":
    serve(SafeRedisLock)
