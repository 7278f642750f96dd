#!/usr/bin/env python3
"""etcd's mutex recipe with the fix for etcd-io/etcd#11456: after waiting for the keys
before its own to go, Lock reads its own key again and fails ("session expired") when
it is gone, as etcd's Go client does since "concurrency: make lock more reliable".

    lockcheck run SPEC --client-cmd "/usr/bin/python3 examples/python/etcd_mutex_safe.py"

The recipe, its replies and options: etcd_mutex.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etcd_mutex import EtcdMutex  # noqa: E402
from lockcheck_client import serve  # noqa: E402


class SafeEtcdMutex(EtcdMutex):
    name = "python etcd Mutex, re-reads its own key after the wait (fixed)"
    recheck_own_key = True


if __name__ == "__main__":
    serve(SafeEtcdMutex)
