#!/usr/bin/env python3
"""etcd's mutex recipe WITH the bug of etcd-io/etcd#11456 (the Go client of etcd 3.4.3):
Lock returns as soon as every key created before its own is gone, without checking
that its own key (its session) still exists. A waiter whose lease expired while it
waited (paused, cut off) is then told it holds the lock, while the next waiter, whose
predecessor was that expired key, may hold it too.

    lockcheck run SPEC --client-cmd "/usr/bin/python3 examples/python/etcd_mutex_unsafe.py"

The recipe, its replies and options: etcd_mutex.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etcd_mutex import EtcdMutex  # noqa: E402
from lockcheck_client import serve  # noqa: E402


class UnsafeEtcdMutex(EtcdMutex):
    name = "python etcd Mutex, returns after the wait without checking its own key (etcd#11456, unsafe)"
    recheck_own_key = False


if __name__ == "__main__":
    serve(UnsafeEtcdMutex)
