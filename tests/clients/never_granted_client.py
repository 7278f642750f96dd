#!/usr/bin/env python3
"""A worker that never gets a lock, for lockcheck's own tests: every acquire
is answered info, as a client that cannot log in would answer (issue 28: such
a run tested nothing, so its verdict is unknown, never valid)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
from lockcheck_client import fail, info, serve  # noqa: E402


class NeverGranted:
    name = "never granted (cannot log in)"
    supports = []

    def acquire(self, key, owner, ttl_ms):
        return info("cannot log in")

    def release(self, key, owner):
        return fail("not-owner")


if __name__ == "__main__":
    serve(lambda init: NeverGranted())
