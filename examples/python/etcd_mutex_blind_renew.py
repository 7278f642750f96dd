#!/usr/bin/env python3
"""etcd's mutex recipe with a heartbeat that ignores a failed refresh: a renew whose
keep-alive etcd answers with TTL 0 (the lease is gone: expired while the holder was
paused or cut off, its key deleted, the lock perhaps granted to the next waiter) is
still reported ok, as a coordination library that only looks for a transport error
does. lockcheck can only take such a renew at its word from the client's side; etcd's
own record (the key's DELETE at a revision before the keep-alive's reply) decides it:
renew-after-expiry, your client.

    lockcheck run examples/python/etcd-python-blind-renew.json

The recipe, its replies and options: etcd_mutex.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etcd_mutex import EtcdMutex  # noqa: E402
from lockcheck_client import serve  # noqa: E402


class BlindRenewEtcdMutex(EtcdMutex):
    name = "python etcd Mutex whose renew ignores a keep-alive TTL of 0 (unsafe)"
    trust_keepalive_ttl = False


if __name__ == "__main__":
    serve(BlindRenewEtcdMutex)
